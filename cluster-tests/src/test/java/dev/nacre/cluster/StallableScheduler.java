package dev.nacre.cluster;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.locks.LockSupport;

/**
 * A node's timer pool (daemon threads named after the node), given to the node as its
 * {@code NodeSeams.timers}. With a {@link TimerStall} hook, each task first waits while the hook
 * says the node is stalled; without one it is a plain scheduled pool.
 */
public final class StallableScheduler extends ScheduledThreadPoolExecutor {
  private final String node;
  private final Optional<TimerStall> stall;

  public StallableScheduler(int threads, String node, Optional<TimerStall> stall) {
    super(threads, r -> {
      Thread t = new Thread(r, node + "-timer");
      t.setDaemon(true);
      return t;
    });
    this.node = node;
    this.stall = stall;
  }

  @Override
  protected void beforeExecute(Thread t, Runnable r) {
    if (stall.isEmpty()) {
      return;
    }
    Duration wait = stall.get().stalledFor(node);
    while (!wait.isNegative() && !wait.isZero() && !isShutdown()) {
      LockSupport.parkNanos(wait.toNanos());
      wait = stall.get().stalledFor(node);
    }
  }
}
