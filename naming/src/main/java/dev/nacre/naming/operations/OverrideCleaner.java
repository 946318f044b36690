package dev.nacre.naming.operations;

import dev.nacre.consensus.async.PeriodicTask;
import dev.nacre.consensus.raft.ReplicatedLog;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.InstanceOverride;
import dev.nacre.naming.model.Records;
import dev.nacre.naming.registry.RegistryIndex;
import dev.nacre.proto.naming.NamingOperation;
import dev.nacre.proto.naming.RemoveInstanceOverride;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends the overrides of instances that have stayed away: once an instance has been absent from
 * this node's view of the whole cluster (owned and replicated ephemeral instances alike) for the
 * retention period, its override is removed through the log. Only the Raft leader removes, so one
 * member decides; the removal names the override's revision, so an edit made meanwhile survives.
 *
 * <p>The retention covers a client's move to another node (connection loss detection, Distro
 * takeover, the client's redo) with room to spare; Nacos keeps its equivalent instance metadata
 * for 60 s after the instance goes. A new leader starts counting afresh, which only lengthens it.
 *
 * <p>{@link #cleanOnce()} is not meant to run concurrently with itself (the periodic task never
 * overlaps runs).
 */
public final class OverrideCleaner {
  private static final Logger log = LoggerFactory.getLogger(OverrideCleaner.class);
  static final String LEADER = "LEADER";

  private final RegistryIndex index;
  private final ReplicatedLog replicatedLog;
  private final Duration retention;
  private final Clock clock;
  /** Keys of overrides whose instance is absent, with when this leader first saw it absent. */
  private final Map<InstanceKey, Long> absentSince = new HashMap<>();

  public OverrideCleaner(RegistryIndex index, ReplicatedLog replicatedLog, Duration retention, Clock clock) {
    this.index = index;
    this.replicatedLog = replicatedLog;
    this.retention = retention;
    this.clock = clock;
  }

  public PeriodicTask start(ScheduledExecutorService scheduler, Duration period) {
    return PeriodicTask.start(scheduler, period, "override-cleanup", this::cleanOnce);
  }

  /** One scan; returns how many removals it submitted. */
  public int cleanOnce() {
    if (!LEADER.equals(replicatedLog.status().role())) {
      absentSince.clear();
      return 0;
    }
    long now = clock.millis();
    Set<InstanceKey> seen = new HashSet<>();
    int submitted = 0;
    for (InstanceOverride o : index.overrides().all()) {
      seen.add(o.key());
      if (index.instance(o.key(), true).isPresent()) {
        absentSince.remove(o.key());
        continue;
      }
      long since = absentSince.computeIfAbsent(o.key(), k -> now);
      if (now - since >= retention.toMillis()) {
        submit(o);
        submitted++;
      }
    }
    absentSince.keySet().retainAll(seen);
    return submitted;
  }

  private void submit(InstanceOverride o) {
    NamingOperation op = NamingOperation.newBuilder()
        .setRemoveInstanceOverride(RemoveInstanceOverride.newBuilder()
            .setId(Records.toProto(o.key()))
            .setIfRevision(o.revision()))
        .build();
    log.info("Ending the operator override of instance {}: absent for {} ms or more", o.key().instanceId(),
        retention.toMillis());
    // Not awaited: a failed removal is retried by the next scan.
    replicatedLog.submit(op.toByteArray()).whenComplete((r, e) -> {
      if (e != null) {
        log.info("Override of {} not removed yet ({}); the next scan retries", o.key().instanceId(), e.toString());
      }
    });
  }
}
