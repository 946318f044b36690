package dev.nacre.consensus.async;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Starting and reading the futures of asynchronous operations (a replicated log's writes, a
 * domain's operations, a forward to another member), for the domains and the ports alike.
 */
public final class Completions {
  private Completions() {}

  /**
   * The failure a future completed with: without the {@link CompletionException} that a dependent
   * stage wraps it in, so that a refusal is seen as the typed exception it is.
   */
  public static Throwable cause(Throwable failure) {
    return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
  }

  /**
   * The future {@code start} returns, or one failed with what it threw: a caller that answers from
   * the future handles a refusal found before the work started and one found later alike.
   */
  public static <T> CompletableFuture<T> start(Callable<CompletableFuture<T>> start) {
    try {
      return start.call();
    } catch (Exception e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}
