package dev.nacre.naming.distro;

import dev.nacre.consensus.distro.DistroRecord;
import dev.nacre.consensus.distro.DistroReplicator;
import dev.nacre.naming.ephemeral.EphemeralRecord;
import dev.nacre.naming.ephemeral.EphemeralStore;
import dev.nacre.naming.model.InstanceKey;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Repairs the store where it disagrees with the replicator about who owns an instance.
 *
 * <p>Why: a peer's record can reach the store while this member's own newer write of the same key
 * is still queued for the replicator. The replicator then ranks this member's write first and
 * peers take it as the owner, but the store holds the peer's replica, so nobody checks the
 * instance's health and it would never expire. The replicator offers no way to learn when a
 * publish has been ranked, so the two views are compared instead, off the write path.
 *
 * <p>A difference is repaired only when the same difference is seen in two consecutive rounds:
 * a write in flight between store and replicator looks like one for a moment. Not thread-safe:
 * one caller (a periodic task).
 */
final class ReplicaReconciler {
  private static final Logger log = LoggerFactory.getLogger(ReplicaReconciler.class);

  private final EphemeralStore store;
  private final DistroReplicator replicator;
  private final String selfId;
  private final Duration timeout;
  private Map<InstanceKey, String> suspects = Map.of();

  ReplicaReconciler(EphemeralStore store, DistroReplicator replicator, Duration timeout) {
    this.store = store;
    this.replicator = replicator;
    this.selfId = store.localNodeId();
    this.timeout = timeout;
  }

  /**
   * Compares once and repairs differences also seen last round.
   *
   * @return how many instances were repaired
   * @throws IllegalStateException when the replicator is closed or did not answer in time
   */
  int reconcileOnce() {
    Map<String, DistroRecord> live;
    try {
      live = replicator.liveRecords().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("[" + selfId + "] could not read the Distro records to"
          + " reconcile ephemeral instances; retried next round: " + e, e);
    }
    Map<InstanceKey, DistroRecord> replicated = new HashMap<>();
    live.forEach((key, record) -> {
      if (DistroKeys.isHealthKey(key)) {
        return; // persistent instances' health: not the store's business
      }
      try {
        replicated.put(DistroKeys.parseInstanceKey(key), record);
      } catch (ReplicatedValueException notOurs) {
        // another user's key or garbage: the applier already logged it
      }
    });
    Map<InstanceKey, String> found = new HashMap<>();
    Set<InstanceKey> keys = new HashSet<>(replicated.keySet());
    store.records().forEach(r -> keys.add(r.key()));
    int repaired = 0;
    for (InstanceKey key : keys) {
      DistroRecord r = replicated.get(key);
      EphemeralRecord held = store.get(key).orElse(null);
      String difference = differenceOf(r, held);
      if (difference == null) {
        continue;
      }
      found.put(key, difference);
      if (difference.equals(suspects.get(key)) && repair(key, r, held)) {
        repaired++;
      }
    }
    suspects = found;
    if (repaired > 0) {
      log.warn("[{}] repaired {} ephemeral instances whose owner differed between store and"
          + " replication", selfId, repaired);
    }
    return repaired;
  }

  /** A description of the difference, equal across rounds while nothing changes; null if none. */
  private String differenceOf(DistroRecord r, EphemeralRecord held) {
    boolean ownedHere = held != null && held.ownerNodeId().equals(selfId);
    if (r == null) {
      // Owned here but not replicated happens only while a publish is queued: not a difference.
      return held == null || ownedHere ? null : "stale replica of " + held.ownerNodeId() + "@" + held.revision();
    }
    boolean replicatedAsOurs = r.owner().equals(selfId);
    if (replicatedAsOurs) {
      return ownedHere ? null : "ours@" + r.revision() + " held as " + describe(held);
    }
    if (held != null && !ownedHere && held.ownerNodeId().equals(r.owner()) && held.revision() == r.revision()) {
      return null;
    }
    return r.owner() + "@" + r.revision() + " held as " + describe(held);
  }

  private static String describe(EphemeralRecord held) {
    return held == null ? "nothing" : held.ownerNodeId() + "@" + held.revision();
  }

  private boolean repair(InstanceKey key, DistroRecord r, EphemeralRecord held) {
    if (r == null) {
      return store.removeReplica(key, held.ownerNodeId());
    }
    if (r.owner().equals(selfId)) {
      if (held == null) {
        replicator.delete(r.key());
        log.info("[{}] instance {} was replicated as this member's but is gone here; deleting it",
            selfId, key.instanceId());
        return true;
      }
      return store.adopt(held);
    }
    try {
      EphemeralRecord put = store.putReplica(EphemeralInstanceCodec.decode(r.key(), r.value()), r.owner(), r.revision());
      return Objects.equals(put.ownerNodeId(), r.owner());
    } catch (RuntimeException e) {
      log.warn("[{}] could not repair instance {}: {}", selfId, key.instanceId(), e.getMessage());
      return false;
    }
  }
}
