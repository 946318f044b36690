package dev.nacre.node.http;

import java.nio.charset.StandardCharsets;

/** Status, content type and body of an answer. */
public record ApiResponse(int status, String contentType, byte[] body) {
  public static final String JSON = "application/json;charset=UTF-8";
  public static final String TEXT = "text/plain;charset=UTF-8";

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
