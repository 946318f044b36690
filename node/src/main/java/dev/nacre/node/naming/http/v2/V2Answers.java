package dev.nacre.node.naming.http.v2;

import dev.nacre.consensus.async.Completions;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.Json;
import dev.nacre.node.http.Router;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Nacos' v2 answer wrapper, {@code {"code":0,"message":"success","data":...}}, and its errors. */
final class V2Answers {
  private static final Logger log = LoggerFactory.getLogger(V2Answers.class);
  private final Json json;

  V2Answers(Json json) {
    this.json = json;
  }

  ApiResponse ok(Object data) {
    return json.response(body(V2Code.SUCCESS, data));
  }

  /** Runs the handler and turns any failure into a v2 error answer. */
  Router.Handler wrap(Router.Handler handler) {
    return r -> {
      try {
        return handler.handle(r);
      } catch (Exception e) {
        return error(r, V2Error.of(e), e);
      }
    };
  }

  /**
   * {@link #wrap} for a route that answers through a future: a failure, now or later, is a v2
   * error answer.
   */
  Router.AsyncHandler wrapAsync(Router.AsyncHandler handler) {
    return r -> Completions.start(() -> handler.handle(r)).exceptionally(e -> {
      Throwable cause = Completions.cause(e);
      Exception failure = cause instanceof Exception x ? x : new IllegalStateException(cause);
      return error(r, V2Error.of(failure), failure);
    });
  }

  private ApiResponse error(ApiRequest r, V2Error error, Exception cause) {
    if (error.status() >= 500) {
      log.warn("{} {} failed: {}", r.method(), r.path(), cause.toString(), cause);
    } else {
      log.debug("{} {} refused: {}", r.method(), r.path(), error.getMessage());
    }
    byte[] bytes = json.response(body(error.code(), error.getMessage())).body();
    return new ApiResponse(error.status(), ApiResponse.JSON, bytes);
  }

  private static Map<String, Object> body(V2Code code, Object data) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("code", code.code());
    m.put("message", code.message());
    m.put("data", data);
    return m;
  }
}
