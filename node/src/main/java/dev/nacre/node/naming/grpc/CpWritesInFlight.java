package dev.nacre.node.naming.grpc;

import java.util.concurrent.Semaphore;

/**
 * How many client CP writes this node has submitted and not yet answered. The client port's
 * handlers run on its transport threads and never wait for a CP write: they submit it and answer
 * when it completes. What bounds the writes queued behind a slow or leaderless Raft group is this
 * count; past it the client hears Nacos' over-threshold error (503) at once.
 */
final class CpWritesInFlight {
  static final int MAX = 1024;

  private final Semaphore slots = new Semaphore(MAX);

  /** Takes a slot; false when {@link #MAX} writes are in flight already. */
  boolean tryEnter() {
    return slots.tryAcquire();
  }

  /** Gives back a slot taken by {@link #tryEnter}, once the write is answered. */
  void exit() {
    slots.release();
  }

  /** Writes in flight now; for tests. */
  int inFlight() {
    return MAX - slots.availablePermits();
  }
}
