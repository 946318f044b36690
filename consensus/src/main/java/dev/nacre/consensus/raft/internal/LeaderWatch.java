package dev.nacre.consensus.raft.internal;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The leader this member last heard of, with a bounded wait for one to appear, and how many
 * leaders it has heard of since it started (one per election it saw end).
 */
public final class LeaderWatch {
  private final Consumer<String> onChange;
  private String leaderId;
  private long leadersHeardOf;

  public LeaderWatch() {
    this(leader -> {});
  }

  /** @param onChange told each new leader id (null: none known), on the thread that reports it */
  public LeaderWatch(Consumer<String> onChange) {
    this.onChange = onChange;
  }

  public void update(String newLeaderId) {
    synchronized (this) {
      leaderId = newLeaderId;
      if (newLeaderId != null) {
        leadersHeardOf++;
      }
      notifyAll();
    }
    onChange.accept(newLeaderId);
  }

  /** Leaders announced to this member since it started (a re-elected leader counts again). */
  public synchronized long leadersHeardOf() {
    return leadersHeardOf;
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
