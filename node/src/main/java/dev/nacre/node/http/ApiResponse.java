package dev.nacre.node.http;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Status, content type, body and extra headers of an answer (Nacos' config reads carry
 * {@code Content-MD5}, {@code Config-Type} and others).
 */
public record ApiResponse(int status, String contentType, byte[] body, Map<String, String> headers) {
  public static final String JSON = "application/json;charset=UTF-8";
  public static final String TEXT = "text/plain;charset=UTF-8";

  public ApiResponse {
    headers = Map.copyOf(headers);
  }

  public ApiResponse(int status, String contentType, byte[] body) {
    this(status, contentType, body, Map.of());
  }

  /** This answer with one more header (replacing one of the same name). */
  public ApiResponse withHeader(String name, String value) {
    Map<String, String> more = new LinkedHashMap<>(headers);
    more.put(name, value);
    return new ApiResponse(status, contentType, body, more);
  }

  public static ApiResponse text(int status, String text) {
    return new ApiResponse(status, TEXT, text.getBytes(StandardCharsets.UTF_8));
  }

  public static ApiResponse ok() {
    return text(200, "ok");
  }

  public static ApiResponse json(byte[] json) {
    return new ApiResponse(200, JSON, json);
  }

  /** Nacos' v1 error body. */
  public static ApiResponse error(int status, String message) {
    return text(status, "caused: " + message + ";");
  }
}
