package dev.nacre.consensus.distro;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The home's reports of stored own writes, on their way to the replicator's thread.
 *
 * <p>Handing each report to that thread woke it once per registration (a thread switch each,
 * the dearest part of a write on a small host). Most reports only join a peer's batch that is
 * already due at a later wake of the thread, so they wait here for that wake: the thread
 * publishes with {@link #mayWaitUntil} until when a new report changes nothing by waiting, and
 * only a report made after it (one that may leave at once, on the leading edge), or the
 * {@code wakeAtSize}-th waiting report (a full batch), asks for a wake. The thread drains this
 * queue before each of its events, and after each publish queues a wake for reports still
 * waiting, so a report never waits past the thread's next event.
 *
 * <p>Thread-safe: any thread adds, the replicator's thread drains.
 */
final class OwnWriteQueue {
  /** One stored own write: the home now holds {@code after} for {@code key}, made at {@code atMillis}. */
  record Stored(String key, RecordStamp before, RecordStamp after, long atMillis) {}

  private final ConcurrentLinkedQueue<Stored> queue = new ConcurrentLinkedQueue<>();
  private final AtomicInteger waiting = new AtomicInteger();
  private final AtomicBoolean wakeQueued = new AtomicBoolean();
  private final AtomicLong wakesAsked = new AtomicLong();
  private final int wakeAtSize;
  private volatile long mayWaitUntil = Long.MIN_VALUE;
  private volatile boolean closed;

  OwnWriteQueue(int wakeAtSize) {
    this.wakeAtSize = wakeAtSize;
  }

  /**
   * Queues a report; true when the caller must queue a wake of the thread (at most one is
   * queued at a time).
   */
  boolean add(Stored stored) {
    if (closed) {
      return false; // the replicator stopped: nothing is replicated any more
    }
    queue.add(stored);
    int n = waiting.incrementAndGet();
    // Read after the add: a publish this read misses is followed by a drain that sees the report.
    if (stored.atMillis() < mayWaitUntil && n < wakeAtSize) {
      return false;
    }
    if (wakeQueued.get() || !wakeQueued.compareAndSet(false, true)) {
      return false;
    }
    wakesAsked.incrementAndGet();
    return true;
  }

  /**
   * On the thread, after a publish: true when reports wait and no wake is queued for them, in
   * which case the caller queues one. Not counted in {@link #wakesAsked}: the thread asked.
   */
  boolean claimWakeForWaiting() {
    return !queue.isEmpty() && !wakeQueued.get() && wakeQueued.compareAndSet(false, true);
  }

  /** On the thread, as a queued wake starts: a report after this asks for another. */
  void wakeStarted() {
    wakeQueued.set(false);
  }

  /** On the thread: until when a new report may wait for a wake the thread has already set. */
  void mayWaitUntil(long millis) {
    mayWaitUntil = millis;
  }

  /** On the thread: every report queued so far, oldest first. */
  List<Stored> drain() {
    List<Stored> out = List.of();
    for (Stored s; (s = queue.poll()) != null; ) {
      if (out.isEmpty()) {
        out = new ArrayList<>();
      }
      out.add(s);
      waiting.decrementAndGet();
    }
    return out;
  }

  /** The replicator stopped: later reports are dropped, as are those still waiting. */
  void close() {
    closed = true;
    queue.clear();
  }

  /** How many reports asked for a wake of the thread since the start. */
  long wakesAsked() {
    return wakesAsked.get();
  }
}
