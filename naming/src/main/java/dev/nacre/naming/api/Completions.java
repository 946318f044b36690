package dev.nacre.naming.api;

import java.util.concurrent.CompletionException;

/** Reading the failures of the futures that {@link NamingOperations} and its callers return. */
public final class Completions {
  private Completions() {}

  /**
   * The failure a future completed with: without the {@link CompletionException} that a dependent
   * stage wraps it in, so that a refusal is seen as the {@link NamingException} it is.
   */
  public static Throwable cause(Throwable failure) {
    return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
  }
}
