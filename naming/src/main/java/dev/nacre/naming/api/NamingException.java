package dev.nacre.naming.api;

/**
 * A naming operation failed; {@link Kind} says how, and the edges map it to HTTP or gRPC codes.
 * Messages are written for the operator: what was wrong and what to do.
 */
public class NamingException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** How an operation failed. */
  public enum Kind {
    /** Bad parameter: HTTP 400. */
    INVALID,
    /** Refused because of current state (e.g. ephemeral vs persistent clash): HTTP 400. */
    CONFLICT,
    /** No such service, instance or namespace: HTTP 404. */
    NOT_FOUND,
    /** The CP path could not commit in time: HTTP 503. */
    UNAVAILABLE
  }

  private final Kind kind;

  public NamingException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public NamingException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }

  public static NamingException invalid(String message) {
    return new NamingException(Kind.INVALID, message);
  }

  public static NamingException notFound(String message) {
    return new NamingException(Kind.NOT_FOUND, message);
  }
}
