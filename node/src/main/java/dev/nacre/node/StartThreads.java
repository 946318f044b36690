package dev.nacre.node;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** Parts of a node's start that run on threads of their own while the main thread builds the rest. */
final class StartThreads {
  private StartThreads() {}

  /** Runs one part on a daemon thread named after it and the node; the future says how it ended. */
  static <T> CompletableFuture<T> start(String part, String node, Callable<T> work) {
    CompletableFuture<T> done = new CompletableFuture<>();
    Thread thread = new Thread(() -> {
      try {
        done.complete(work.call());
      } catch (Throwable e) {
        done.completeExceptionally(e);
      }
    }, part + "-" + node);
    thread.setDaemon(true);
    thread.start();
    return done;
  }

  /** The outcome of such a part; its failure as it was thrown. */
  static <T> T await(CompletableFuture<T> part) {
    try {
      return part.join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : e;
    }
  }
}
