package dev.nacre.config.api;

/**
 * A refusal the client ports answer in Nacos' format: {@link #kind} says which code each port
 * gives (HTTP status, gRPC response code); the message tells the caller what to change.
 */
public final class ConfigException extends RuntimeException {
  public enum Kind {
    /** Bad input: a missing or invalid name, content too large, a bad page. HTTP 400. */
    INVALID,
    /** No such configuration or revision. HTTP 404, gRPC 300. */
    NOT_FOUND,
    /** A compare-and-set publish whose md5 no longer matches. HTTP 409 (v1: 500 false), gRPC 400. */
    CONFLICT,
    /** A limit was reached (publishes per client, listeners). HTTP 429/503, gRPC 503. */
    LIMITED,
    /** No quorum: the write is not known to be committed. HTTP 503, gRPC 503. */
    UNAVAILABLE
  }

  private final Kind kind;

  public ConfigException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public ConfigException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }
}
