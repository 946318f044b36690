package dev.nacre.node.configs.http;

import dev.nacre.config.api.ConfigException;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.HttpError;
import dev.nacre.node.http.Json;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The config module's refusals as Nacos answers them: v1 in its {@code caused: ...;} text with a
 * status, v2 in {@code {code, message, data}} with Nacos' error codes and the detail in
 * {@code data}. A CAS publish whose md5 moved is 500 in both, as in Nacos (its clients read any
 * non-200 as "not published").
 */
public final class ConfigErrors {
  /** Nacos' v2 error codes that config answers with. */
  enum V2Code {
    SUCCESS(0, "success"),
    PARAMETER_MISSING(10000, "parameter missing"),
    PARAMETER_VALIDATE_ERROR(20002, "parameter validate error"),
    RESOURCE_NOT_FOUND(20004, "resource not found"),
    RESOURCE_CONFLICT(20005, "resource conflict"),
    SERVER_ERROR(30000, "server error");

    final int code;
    final String message;

    V2Code(int code, String message) {
      this.code = code;
      this.message = message;
    }
  }

  /** A v2 refusal: the HTTP status, the code and the detail. */
  record V2Refusal(int status, V2Code code, String detail) {}

  private ConfigErrors() {}

  /** A {@link ConfigException}'s v1 answer; empty for any other failure (for {@code Router.answerErrors}). */
  public static Optional<ApiResponse> answer(Throwable failure) {
    if (!(failure instanceof ConfigException c)) {
      return Optional.empty();
    }
    return Optional.of(ApiResponse.error(v1Status(c.kind()), c.getMessage()));
  }

  static int v1Status(ConfigException.Kind kind) {
    return switch (kind) {
      case INVALID -> 400;
      case NOT_FOUND -> 404;
      case CONFLICT -> 500;
      case LIMITED, UNAVAILABLE -> 503;
    };
  }

  /** Any failure of a v2 route in v2's terms; an unexpected one is a 500. */
  static V2Refusal v2(Throwable e) {
    if (e instanceof ConfigException c) {
      return switch (c.kind()) {
        case INVALID -> new V2Refusal(400, V2Code.PARAMETER_VALIDATE_ERROR, c.getMessage());
        case NOT_FOUND -> new V2Refusal(404, V2Code.RESOURCE_NOT_FOUND, c.getMessage());
        case CONFLICT -> new V2Refusal(500, V2Code.RESOURCE_CONFLICT, c.getMessage());
        case LIMITED, UNAVAILABLE -> new V2Refusal(503, V2Code.SERVER_ERROR, c.getMessage());
      };
    }
    if (e instanceof HttpError h) {
      V2Code code = h.status() == 404 ? V2Code.RESOURCE_NOT_FOUND
          : h.getMessage().startsWith("Required parameter") ? V2Code.PARAMETER_MISSING
          : h.status() < 500 ? V2Code.PARAMETER_VALIDATE_ERROR : V2Code.SERVER_ERROR;
      return new V2Refusal(h.status(), code, h.getMessage());
    }
    if (e instanceof IllegalArgumentException) {
      return new V2Refusal(400, V2Code.PARAMETER_VALIDATE_ERROR, e.getMessage());
    }
    return new V2Refusal(500, V2Code.SERVER_ERROR, "internal error (" + e + "); see the node log");
  }

  static ApiResponse v2Answer(Json json, V2Refusal refusal) {
    ApiResponse body = json.response(v2Body(refusal.code(), refusal.detail()));
    return new ApiResponse(refusal.status(), ApiResponse.JSON, body.body());
  }

  static Map<String, Object> v2Body(V2Code code, Object data) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("code", code.code);
    m.put("message", code.message);
    m.put("data", data);
    return m;
  }
}
