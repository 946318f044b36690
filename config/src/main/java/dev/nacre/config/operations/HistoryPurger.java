package dev.nacre.config.operations;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drops revisions older than the retention through the log, every period, from any member: the
 * purge is idempotent, so several members purging at once only repeat each other's work. A purge
 * that hit its limit is followed at once by another, so a backlog drains in bounded entries.
 */
public final class HistoryPurger {
  private static final Logger log = LoggerFactory.getLogger(HistoryPurger.class);
  /** Revisions dropped by one log entry: bounds the entry's batch and the apply's pause. */
  static final int LIMIT = 1000;

  private final LogConfigOperations operations;
  private final Duration retention;
  private final Clock clock;
  private final String nodeId;

  public HistoryPurger(String nodeId, LogConfigOperations operations, Duration retention, Clock clock) {
    this.nodeId = nodeId;
    this.operations = operations;
    this.retention = retention;
    this.clock = clock;
  }

  /** Purges every {@code period}, first after one period; closing the handle stops it. */
  public AutoCloseable start(ScheduledExecutorService scheduler, Duration period) {
    ScheduledFuture<?> task = scheduler.scheduleWithFixedDelay(this::purgeOnce, period.toMillis(), period.toMillis(),
        TimeUnit.MILLISECONDS);
    return () -> task.cancel(false);
  }

  /** One round: purges until a purge drops less than its limit or fails. */
  public void purgeOnce() {
    long before = clock.millis() - retention.toMillis();
    try {
      int total = 0;
      int purged;
      do {
        purged = operations.purgeHistory(before, LIMIT).join();
        total += purged;
      } while (purged == LIMIT);
      if (total > 0) {
        log.info("[{}] Purged {} config revisions older than {}", nodeId, total, retention);
      }
    } catch (RuntimeException e) {
      log.warn("[{}] Config history purge failed, retried next period: {}", nodeId, e.toString());
    }
  }
}
