package dev.nacre.cluster;

import java.time.Duration;

/**
 * Decides the fate of one call that member {@code from} sends to member {@code to} over a link
 * between members. The harness implements it ({@link LinkFaults}) to inject network faults, and
 * applies it to the peer port ({@link LinkFilterInterceptor}) and the Raft port
 * ({@link RaftLinkHooks}). Implementations must be thread-safe and fast: they are consulted on
 * transport threads for every call.
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
