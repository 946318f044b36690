package dev.nacre.node.auth;

/** A request refused by client authentication: 403 over HTTP, error code 403 over gRPC (as Nacos). */
public final class AccessDenied extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public AccessDenied(String message) {
    super(message, null, false, false);
  }
}
