package dev.nacre.consensus.raft.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Futures that complete when this member's applied index reaches a given index. A write replied
 * by the leader is only acknowledged once it is applied here too, so a read of local state right
 * after the acknowledgement sees it.
 */
public final class AppliedIndexWaiters {
  private final TreeMap<Long, List<CompletableFuture<Void>>> waiting = new TreeMap<>();
  private long applied;
  private volatile long lastAdvanceNanos = System.nanoTime();
  private Supplier<RuntimeException> closedError;

  /** Completes when the applied index is at least {@code index}. */
  public synchronized CompletableFuture<Void> await(long index) {
    if (closedError != null) {
      return CompletableFuture.failedFuture(closedError.get());
    }
    if (index <= applied) {
      return CompletableFuture.completedFuture(null);
    }
    CompletableFuture<Void> f = new CompletableFuture<>();
    waiting.computeIfAbsent(index, i -> new ArrayList<>()).add(f);
    return f;
  }

  public void advance(long index) {
    List<CompletableFuture<Void>> ready = new ArrayList<>();
    synchronized (this) {
      if (index <= applied) {
        return;
      }
      applied = index;
      lastAdvanceNanos = System.nanoTime();
      Map<Long, List<CompletableFuture<Void>>> head = waiting.headMap(index, true);
      head.values().forEach(ready::addAll);
      head.clear();
    }
    ready.forEach(f -> f.complete(null));
  }

  public synchronized long applied() {
    return applied;
  }

  /** When the applied index last moved (or this was created), in {@link System#nanoTime()}. */
  public long lastAdvanceNanos() {
    return lastAdvanceNanos;
  }

  /** Fails every waiter now and later with {@code error}. */
  public void close(Supplier<RuntimeException> error) {
    List<CompletableFuture<Void>> all = new ArrayList<>();
    synchronized (this) {
      closedError = error;
      waiting.values().forEach(all::addAll);
      waiting.clear();
    }
    all.forEach(f -> f.completeExceptionally(error.get()));
  }
}
