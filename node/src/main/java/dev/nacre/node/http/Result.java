package dev.nacre.node.http;

/** Nacos' {@code {code, message, data}} wrapper used by the console and v2 APIs. */
public record Result(int code, String message, Object data) {
  public static Result ok(Object data) {
    return new Result(200, null, data);
  }
}
