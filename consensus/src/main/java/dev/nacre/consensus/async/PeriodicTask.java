package dev.nacre.consensus.async;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a task at a fixed delay on a scheduler the caller owns, until closed. A failing run is
 * logged and the next one still happens (a plain scheduled task would stop silently).
 */
public final class PeriodicTask implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PeriodicTask.class);

  private final ScheduledFuture<?> future;

  private PeriodicTask(ScheduledFuture<?> future) {
    this.future = future;
  }

  public static PeriodicTask start(
      ScheduledExecutorService scheduler, Duration period, String name, Runnable task) {
    Runnable guarded =
        () -> {
          try {
            task.run();
          } catch (RuntimeException e) {
            log.warn("Periodic task {} failed; it runs again in {}", name, period, e);
          }
        };
    long millis = period.toMillis();
    return new PeriodicTask(
        scheduler.scheduleWithFixedDelay(guarded, millis, millis, TimeUnit.MILLISECONDS));
  }

  @Override
  public void close() {
    future.cancel(false);
  }
}
