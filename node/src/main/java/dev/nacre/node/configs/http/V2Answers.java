package dev.nacre.node.configs.http;

import dev.nacre.consensus.async.Completions;
import dev.nacre.node.configs.http.ConfigErrors.V2Code;
import dev.nacre.node.configs.http.ConfigErrors.V2Refusal;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.Json;
import dev.nacre.node.http.Router;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The v2 wrapper {@code {"code":0,"message":"success","data":...}}; any failure in v2's error form. */
final class V2Answers {
  private static final Logger log = LoggerFactory.getLogger(V2Answers.class);
  private final Json json;

  V2Answers(Json json) {
    this.json = json;
  }

  ApiResponse ok(Object data) {
    return json.response(ConfigErrors.v2Body(V2Code.SUCCESS, data));
  }

  Router.Handler wrap(Router.Handler handler) {
    return r -> {
      try {
        return handler.handle(r);
      } catch (Exception e) {
        return error(r, e);
      }
    };
  }

  Router.AsyncHandler wrapAsync(Router.AsyncHandler handler) {
    return r -> Completions.start(() -> handler.handle(r)).exceptionally(e -> error(r, Completions.cause(e)));
  }

  private ApiResponse error(ApiRequest r, Throwable e) {
    V2Refusal refusal = ConfigErrors.v2(e);
    if (refusal.status() >= 500) {
      log.warn("{} {} failed: {}", r.method(), r.path(), e.toString(), e);
    } else {
      log.debug("{} {} refused: {}", r.method(), r.path(), refusal.detail());
    }
    return ConfigErrors.v2Answer(json, refusal);
  }
}
