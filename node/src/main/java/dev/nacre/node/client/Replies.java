package dev.nacre.node.client;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The common fields of Nacos responses ({@code resultCode} 200 or 500, {@code errorCode},
 * {@code message}, {@code success}) and the error codes the clients react to.
 */
public final class Replies {
  static final int UNREGISTERED = 301;
  static final int NO_HANDLER = 302;
  static final int BAD_GATEWAY = 502;
  public static final int PARAM_INVALID = 400;
  /** Nacos' NO_RIGHT: client authentication refused the request. */
  static final int NO_RIGHT = 403;
  public static final int NOT_FOUND = 404;
  static final int SERVER_ERROR = 500;
  public static final int UNAVAILABLE = 503;

  private Replies() {}

  /** A reply of {@code type} carrying {@code body}'s own fields. */
  public record Reply(String type, ObjectNode body) {}

  public static Reply ok(PayloadCodec codec, String type) {
    return ok(type, codec.object());
  }

  public static Reply ok(String type, ObjectNode body) {
    body.put("resultCode", 200);
    body.put("errorCode", 0);
    body.put("success", true);
    return new Reply(type, body);
  }

  public static Reply fail(PayloadCodec codec, String type, int errorCode, String message) {
    ObjectNode body = codec.object();
    body.put("resultCode", 500);
    body.put("errorCode", errorCode);
    body.put("message", message);
    body.put("success", false);
    return new Reply(type, body);
  }

  public static Reply error(PayloadCodec codec, int errorCode, String message) {
    return fail(codec, "ErrorResponse", errorCode, message);
  }
}
