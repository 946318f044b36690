package dev.nacre.node.hooks;

import java.time.Duration;

/**
 * Decides the fate of one call that member {@code from} sends to member {@code to} over a link
 * between members. A test harness implements it to inject network faults; production nodes run
 * without one. Implementations must be thread-safe and fast: they are consulted on transport
 * threads for every call.
 */
public interface LinkFilter {

  /** What happens to one call; {@link #PASS} when the link has no fault. */
  record Decision(boolean dropped, Duration delay) {
    public static final Decision PASS = new Decision(false, Duration.ZERO);
    public static final Decision DROP = new Decision(true, Duration.ZERO);

    public static Decision delay(Duration delay) {
      return new Decision(false, delay);
    }
  }

  /** The decision for the next call from {@code from} to {@code to} (member addresses). */
  Decision decide(String from, String to);
}
