package dev.nacre.node.naming.http;

import dev.nacre.naming.api.NamingException;
import dev.nacre.node.http.ApiResponse;
import java.util.Optional;

/** The naming registry's refusals as the Open API answers them, by their kind. */
public final class NamingErrors {
  private NamingErrors() {}

  /** A {@link NamingException}'s answer; empty for any other failure. */
  public static Optional<ApiResponse> answer(Throwable failure) {
    if (!(failure instanceof NamingException n)) {
      return Optional.empty();
    }
    int status = switch (n.kind()) {
      case INVALID, CONFLICT -> 400;
      case NOT_FOUND -> 404;
      case UNAVAILABLE -> 503;
    };
    return Optional.of(ApiResponse.error(status, n.getMessage()));
  }
}
