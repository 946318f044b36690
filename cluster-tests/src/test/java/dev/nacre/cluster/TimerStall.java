package dev.nacre.cluster;

import java.time.Duration;

/**
 * Lets a test harness stall a node's own periodic work (membership pings, Distro verify
 * reconciliation, heartbeat scans, probes), as a long GC pause would. The node's timer threads
 * ({@link StallableScheduler}) ask before running each task and wait while the answer is positive,
 * then ask again.
 *
 * <p>Implementations must be thread-safe and must answer zero after a bounded time (a stall that
 * never ends hangs the node's timers for good).
 */
public interface TimerStall {

  /** How long {@code node}'s timer tasks must still wait; zero or negative to run now. */
  Duration stalledFor(String node);
}
