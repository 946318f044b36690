package dev.nacre.node;

import dev.nacre.consensus.raft.RaftStatus;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says in the log when this node's Raft state machine stops applying committed entries (Nacos
 * users lost weeks to a group that died silently), and when it applies again. Checks once a
 * second; the status and {@code /metrics} say the same at any time.
 */
final class ApplyStallLog {
  private static final Logger log = LoggerFactory.getLogger(ApplyStallLog.class);
  static final Duration STALLED_AFTER = Duration.ofSeconds(10);

  private final String node;
  private final Supplier<RaftStatus> raft;
  private boolean reported;

  ApplyStallLog(String node, Supplier<RaftStatus> raft) {
    this.node = node;
    this.raft = raft;
  }

  AutoCloseable start(ScheduledExecutorService scheduler) {
    ScheduledFuture<?> task = scheduler.scheduleWithFixedDelay(this::check, 1, 1, TimeUnit.SECONDS);
    return () -> task.cancel(false);
  }

  /** One look at the status; logs a change of state once. Runs on one scheduler thread. */
  void check() {
    RaftStatus s = raft.get();
    boolean stalled = s.applyStalledMillis() >= STALLED_AFTER.toMillis();
    if (stalled && !reported) {
      log.error("[{}] the Raft state machine has applied nothing for {} s while entries {}..{} are committed:"
          + " this node's persistent instances, services and namespaces are stale. Look above for an"
          + " apply error; restart the node (it replays its log from its last durable index).",
          node, s.applyStalledMillis() / 1000, s.appliedIndex() + 1, s.commitIndex());
    } else if (!stalled && reported) {
      log.info("[{}] the Raft state machine applies again (applied index {})", node, s.appliedIndex());
    }
    reported = stalled;
  }
}
