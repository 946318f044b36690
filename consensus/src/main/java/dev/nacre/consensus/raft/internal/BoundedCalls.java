package dev.nacre.consensus.raft.internal;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Gives every asynchronous call a hard deadline and completes callers' futures on a thread of its
 * own, so that callers' callbacks never run on Ratis' apply or gRPC threads. Closing fails every
 * pending call at once.
 */
public final class BoundedCalls {
  private final ScheduledThreadPoolExecutor timer;
  private final ExecutorService replies;
  private final Set<CompletableFuture<?>> pending = ConcurrentHashMap.newKeySet();
  private volatile Supplier<RuntimeException> closedError;

  public BoundedCalls(String selfId) {
    ScheduledThreadPoolExecutor deadlines = new ScheduledThreadPoolExecutor(1, daemon("nacre-raft-deadline-" + selfId));
    // A call answered in time cancels its deadline; without this the cancelled task would stay
    // queued for the whole timeout, thousands of them under load.
    deadlines.setRemoveOnCancelPolicy(true);
    this.timer = deadlines;
    this.replies = Executors.newSingleThreadExecutor(daemon("nacre-raft-reply-" + selfId));
  }

  /**
   * Starts {@code call} and returns a future that completes with its value, with {@code onError}
   * of its failure, or with {@code onTimeout} after {@code timeoutMs}, whichever comes first.
   */
  public <T> CompletableFuture<T> call(
      Supplier<CompletableFuture<T>> call, long timeoutMs, Supplier<RuntimeException> onTimeout,
      Function<Throwable, RuntimeException> onError) {
    CompletableFuture<T> result = new CompletableFuture<>();
    Supplier<RuntimeException> closed = closedError;
    if (closed != null) {
      result.completeExceptionally(closed.get());
      return result;
    }
    pending.add(result);
    ScheduledFuture<?> deadline;
    try {
      deadline = timer.schedule(() -> fail(result, onTimeout.get()), timeoutMs, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      pending.remove(result);
      result.completeExceptionally(closedError.get());
      return result;
    }
    result.whenComplete((v, e) -> {
      pending.remove(result);
      deadline.cancel(false);
    });
    CompletableFuture<T> attempt;
    try {
      attempt = call.get();
    } catch (RuntimeException e) {
      attempt = CompletableFuture.failedFuture(e);
    }
    attempt.whenComplete((value, error) -> {
      if (error == null) {
        onReplyThread(() -> result.complete(value));
      } else {
        fail(result, onError.apply(unwrap(error)));
      }
    });
    return result;
  }

  /** Runs {@code task} after {@code delayMs}; false if closed. */
  public boolean schedule(Runnable task, long delayMs) {
    try {
      timer.schedule(task, delayMs, TimeUnit.MILLISECONDS);
      return true;
    } catch (RejectedExecutionException e) {
      return false;
    }
  }

  /**
   * Runs {@code task} after {@code delayNanos} unless the returned future is cancelled first, which
   * takes it off the timer at once; null once closed.
   */
  public ScheduledFuture<?> deadline(Runnable task, long delayNanos) {
    try {
      return timer.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      return null;
    }
  }

  /** Deadlines still waiting on the timer, for tests. */
  int pendingDeadlines() {
    return timer.getQueue().size();
  }

  public boolean isClosed() {
    return closedError != null;
  }

  /** Fails pending and later calls with {@code error}. */
  public void close(Supplier<RuntimeException> error) {
    closedError = error;
    for (CompletableFuture<?> f : pending) {
      f.completeExceptionally(error.get());
    }
    timer.shutdownNow();
    replies.shutdown();
  }

  public static Throwable unwrap(Throwable t) {
    while (t instanceof CompletionException && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  private void fail(CompletableFuture<?> result, RuntimeException error) {
    onReplyThread(() -> result.completeExceptionally(error));
  }

  private void onReplyThread(Runnable completion) {
    try {
      replies.execute(completion);
    } catch (RejectedExecutionException e) {
      completion.run();
    }
  }

  private static ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
