package dev.nacre.consensus.raft.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.ToIntFunction;

/**
 * Group commit for one member: keeps at most {@code batchesInFlight} batches in the Raft pipeline;
 * operations submitted while they travel wait here and leave together as the next batch. One
 * writer alone pays no delay (its operation leaves at once as a batch of one), and the more writers
 * there are, the more of them share one Raft entry, one log flush and one replication round: Raft
 * members append and flush entries strictly one request after the other, so without batching every
 * concurrent write costs a flush of its own on each member.
 *
 * <p>With a linger, a batch waits for the writers that are about to come back: those whose batch
 * completed last (their replies are on the way, their next writes follow) and those that were
 * already waiting when it completed. It leaves once it holds as many, or after the linger or
 * {@value #LINGER_ROUND_TRIPS} recent round trips, whichever is shorter. Writers whose replies take
 * longer to come back than the entry took (those a follower forwards wait for that follower to
 * apply the entry too) would miss a shorter wait. A linger that runs out (its writers did not come
 * back in time: they write seldom) halves the next one's wait, at most {@value #MAX_LINGER_HALVINGS}
 * times in a row; one that its writers end restores the whole wait. So a low write rate does not
 * make each write wait out a linger.
 * Writers that each keep one write in flight otherwise settle into groups that alternate between
 * entries (one group's replies travel while the other's entry commits), and every entry costs a
 * flush and a round of messages on every member whatever its size. Once they share one batch,
 * the next leaves as soon as all of them are back, not a linger later. A lone writer never waits:
 * its batches hold one operation each.
 *
 * <p>Keeps the order of submission: batches leave in order, and the Raft client keeps their order.
 * An operation whose future is already done when its batch forms (its caller gave up) is dropped.
 * Thread-safe; the send function is called outside the lock, completions run on {@code callbacks}.
 */
public final class OperationBatcher<T> {
  /** The longest linger in recent batches' round trips (measured: docs/PERFORMANCE.md). */
  static final int LINGER_ROUND_TRIPS = 4;
  /** How often lingers that run out in a row halve the next one's wait, at most. */
  static final int MAX_LINGER_HALVINGS = 4;

  /** Ends a linger: runs {@code end} once {@code nanos} have passed. */
  interface LingerTimer {
    void schedule(long nanos, Runnable end);
  }

  /**
   * Bytes of operations a batch may carry (a single larger operation still leaves, alone): Ratis'
   * leader sends no entry larger than its appender buffer (4 MiB), so many large operations (a
   * configuration may hold up to 3 MiB) must not add up to one entry.
   */
  public static final int MAX_BATCH_BYTES = 1 << 20;

  private final int batchesInFlight;
  private final int maxOperations;
  private final ToIntFunction<T> bytesOf;
  private final Function<List<T>, CompletableFuture<List<byte[]>>> send;
  private final Executor callbacks;
  private final long lingerNanos;
  private final LongSupplier nanoClock;
  private final LingerTimer lingerTimer;
  /** Recent batches' time from sending to completion, smoothed; 0 before the first completes. */
  private long roundTripNanos;
  private final ArrayDeque<Pending<T>> queue = new ArrayDeque<>();
  private int inFlight;
  /** Operations of the batch that completed last: their writers are about to submit again. */
  private int lastCompletedSize;
  /** Operations that were waiting when that batch completed. */
  private int waitingAtLastCompletion;
  /** Counts lingers, so that a timer of a linger that a full batch already ended does nothing. */
  private long lingers;
  private boolean lingering;
  private boolean lingerOver;
  /** Lingers in a row that ran out before their writers came back. */
  private int missedLingers;

  private record Pending<T>(T operation, CompletableFuture<byte[]> result) {}

  /**
   * @param lingerNanos how long a batch may wait for the writers about to come back (see above);
   *     0 for never
   * @param send submits one batch and completes with one result per operation, in order, or fails
   *     the whole batch
   */
  public OperationBatcher(int batchesInFlight, int maxOperations, ToIntFunction<T> bytesOf, long lingerNanos,
      Function<List<T>, CompletableFuture<List<byte[]>>> send, Executor callbacks) {
    this(batchesInFlight, maxOperations, bytesOf, lingerNanos, send, callbacks, System::nanoTime,
        (nanos, end) -> CompletableFuture.delayedExecutor(nanos, TimeUnit.NANOSECONDS, callbacks).execute(end));
  }

  /** As above, for operations that count no bytes (tests of the batching by count and time). */
  OperationBatcher(int batchesInFlight, int maxOperations, long lingerNanos,
      Function<List<T>, CompletableFuture<List<byte[]>>> send, Executor callbacks) {
    this(batchesInFlight, maxOperations, op -> 0, lingerNanos, send, callbacks);
  }

  /** As above, timing round trips by {@code nanoClock} and ending lingers by {@code lingerTimer} (tests). */
  OperationBatcher(int batchesInFlight, int maxOperations, ToIntFunction<T> bytesOf, long lingerNanos,
      Function<List<T>, CompletableFuture<List<byte[]>>> send, Executor callbacks, LongSupplier nanoClock,
      LingerTimer lingerTimer) {
    if (batchesInFlight < 1 || maxOperations < 1 || lingerNanos < 0) {
      throw new IllegalArgumentException("batchesInFlight and maxOperations must be >= 1, lingerNanos >= 0");
    }
    this.batchesInFlight = batchesInFlight;
    this.maxOperations = maxOperations;
    this.bytesOf = bytesOf;
    this.send = send;
    this.callbacks = callbacks;
    this.lingerNanos = lingerNanos;
    this.nanoClock = nanoClock;
    this.lingerTimer = lingerTimer;
  }

  /** Completes with this operation's result once its batch is committed, or with its batch's failure. */
  public CompletableFuture<byte[]> submit(T operation) {
    Pending<T> pending = new Pending<>(operation, new CompletableFuture<>());
    synchronized (this) {
      queue.add(pending);
    }
    sendWhileRoom();
    return pending.result;
  }

  /** Operations waiting for a batch, for tests and status. */
  public synchronized int queued() {
    return queue.size();
  }

  private void sendWhileRoom() {
    while (true) {
      List<Pending<T>> batch = takeBatch();
      if (batch.isEmpty()) {
        return;
      }
      long sentAt = nanoClock.getAsLong();
      List<T> operations = new ArrayList<>(batch.size());
      batch.forEach(p -> operations.add(p.operation));
      CompletableFuture<List<byte[]>> sent;
      try {
        sent = send.apply(operations);
      } catch (RuntimeException | Error e) {
        // Fails this batch only: a slot that never came back would stop every later write.
        sent = CompletableFuture.failedFuture(e);
      }
      // Async: a batch that completes at once must not send the next one from this stack frame.
      sent.whenCompleteAsync((results, error) -> finish(batch, sentAt, results, error), callbacks);
    }
  }

  private synchronized List<Pending<T>> takeBatch() {
    if (inFlight >= batchesInFlight || queue.isEmpty() || lingers()) {
      return List.of();
    }
    if (lingering && !lingerOver) {
      missedLingers = 0; // its writers came back in time
    }
    lingering = false;
    lingerOver = false;
    List<Pending<T>> batch = new ArrayList<>();
    long bytes = 0;
    while (!queue.isEmpty() && batch.size() < maxOperations) {
      Pending<T> next = queue.peek();
      if (next.result.isDone()) {
        queue.poll();
        continue;
      }
      int size = bytesOf.applyAsInt(next.operation);
      if (!batch.isEmpty() && bytes + size > MAX_BATCH_BYTES) {
        break;
      }
      queue.poll();
      batch.add(next);
      bytes += size;
    }
    if (!batch.isEmpty()) {
      inFlight++;
    }
    return batch;
  }

  /** Whether the queue waits for more operations now; starts the linger's timer on the first wait. */
  private boolean lingers() {
    int expected = Math.min(maxOperations, lastCompletedSize + waitingAtLastCompletion);
    if (lingerNanos == 0 || lingerOver || lastCompletedSize < 2 || queue.size() >= expected) {
      return false;
    }
    if (!lingering) {
      lingering = true;
      long linger = ++lingers;
      long longest = roundTripNanos == 0 ? lingerNanos : Math.min(lingerNanos, roundTripNanos * LINGER_ROUND_TRIPS);
      lingerTimer.schedule(longest >> Math.min(missedLingers, MAX_LINGER_HALVINGS), () -> lingerOver(linger));
    }
    return true;
  }

  private void lingerOver(long linger) {
    synchronized (this) {
      if (!lingering || linger != lingers) {
        return; // that linger ended with a full batch
      }
      lingerOver = true;
      missedLingers++;
    }
    sendWhileRoom();
  }

  private void finish(List<Pending<T>> batch, long sentAt, List<byte[]> results, Throwable error) {
    long roundTrip = Math.max(1, nanoClock.getAsLong() - sentAt);
    synchronized (this) {
      inFlight--;
      roundTripNanos = roundTripNanos == 0 ? roundTrip : roundTripNanos + (roundTrip - roundTripNanos) / 8;
      lastCompletedSize = batch.size();
      waitingAtLastCompletion = queue.size();
    }
    if (error == null && results.size() != batch.size()) {
      error = new IllegalStateException("a batch of " + batch.size() + " operations got "
          + results.size() + " results");
    }
    for (int i = 0; i < batch.size(); i++) {
      if (error == null) {
        batch.get(i).result.complete(results.get(i));
      } else {
        batch.get(i).result.completeExceptionally(error);
      }
    }
    sendWhileRoom();
  }
}
