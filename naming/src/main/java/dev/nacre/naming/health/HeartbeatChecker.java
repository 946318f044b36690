package dev.nacre.naming.health;

import dev.nacre.consensus.async.PeriodicTask;
import dev.nacre.naming.api.NamingConfig;
import dev.nacre.naming.ephemeral.EphemeralRecord;
import dev.nacre.naming.ephemeral.EphemeralStore;
import java.time.Clock;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns silent ephemeral instances unhealthy, then removes them, as Nacos' beat check does: no
 * beat for longer than the heartbeat timeout (15 s) -> unhealthy; longer than the delete timeout
 * (30 s) -> removed. Only beat-driven instances owned by this node are checked; their owner
 * decides for all. Instances of client connections are never expired here.
 *
 * <p>{@link #checkOnce()} does one scan; a {@link PeriodicTask} runs it every scan period. Not
 * meant to run concurrently with itself (the periodic task never overlaps runs).
 */
public final class HeartbeatChecker {
  private static final Logger log = LoggerFactory.getLogger(HeartbeatChecker.class);

  private final EphemeralStore store;
  private final NamingConfig config;
  private final Clock clock;

  public HeartbeatChecker(EphemeralStore store, NamingConfig config, Clock clock) {
    this.store = store;
    this.config = config;
    this.clock = clock;
  }

  /** Runs {@link #checkOnce()} every scan period on {@code scheduler} until the task is closed. */
  public PeriodicTask start(ScheduledExecutorService scheduler) {
    return PeriodicTask.start(scheduler, config.heartbeatScanPeriod(), "heartbeat-check", this::checkOnce);
  }

  /** Scans every owned instance once. */
  public void checkOnce() {
    long now = clock.millis();
    for (EphemeralRecord record : store.records()) {
      if (!record.ownerNodeId().equals(store.localNodeId()) || record.connectionOwned()) {
        // Replicas are their owner's to check; a client connection's instances live and die
        // with the connection, whose liveness the transport checks.
        continue;
      }
      HeartbeatTiming timing = HeartbeatTiming.of(record.instance(), config);
      long silence = now - record.lastBeatMillis();
      if (silence > timing.ipDeleteTimeoutMillis()) {
        if (store.expire(record)) {
          log.info(
              "Removed instance {}: no beat for {} ms (delete timeout {} ms)",
              record.key().instanceId(), silence, timing.ipDeleteTimeoutMillis());
        }
      } else if (silence > timing.heartBeatTimeoutMillis() && record.instance().healthy()) {
        if (store.markUnhealthy(record)) {
          log.info(
              "Instance {} is unhealthy: no beat for {} ms (timeout {} ms)",
              record.key().instanceId(), silence, timing.heartBeatTimeoutMillis());
        }
      }
    }
  }
}
