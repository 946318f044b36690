package dev.nacre.consensus.raft.internal;

import java.time.Duration;
import java.util.Optional;

/** The leader this member last heard of, with a bounded wait for one to appear. */
public final class LeaderWatch {
  private String leaderId;

  public synchronized void update(String newLeaderId) {
    leaderId = newLeaderId;
    notifyAll();
  }

  public synchronized Optional<String> current() {
    return Optional.ofNullable(leaderId);
  }

  /** Waits up to {@code timeout} for a leader; empty if none appeared. */
  public synchronized Optional<String> await(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    long remaining;
    while (leaderId == null && (remaining = deadline - System.nanoTime()) > 0) {
      wait(Math.max(1, remaining / 1_000_000));
    }
    return Optional.ofNullable(leaderId);
  }
}
