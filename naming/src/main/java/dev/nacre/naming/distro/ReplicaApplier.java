package dev.nacre.naming.distro;

import dev.nacre.consensus.distro.DistroHandler;
import dev.nacre.consensus.distro.DistroRecord;
import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.ephemeral.EphemeralRecord;
import dev.nacre.naming.ephemeral.EphemeralStore;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies what peers replicate, by key namespace ({@link DistroKeys}): health records of
 * persistent instances go to {@link PersistentHealthReplication}; every other key is read as an
 * ephemeral instance and applied to the {@link EphemeralStore} (and through it the registry index)
 * as a replica owned by the record's owner. Never publishes: the store does not report replica
 * changes to its listeners, so nothing echoes back to the replicator.
 *
 * <p>A record that cannot be read, or that clashes with a persistent instance here, is logged and
 * skipped: one bad record must not stop the rest of a batch.
 */
final class ReplicaApplier implements DistroHandler {
  private static final Logger log = LoggerFactory.getLogger(ReplicaApplier.class);

  private final EphemeralStore store;
  private final PersistentHealthReplication health;
  private final String selfId;

  /** With health records applied to the store's index (tests of the ephemeral path). */
  ReplicaApplier(EphemeralStore store) {
    this(store, new PersistentHealthReplication(store.localNodeId(), store.index(), store.clock()));
  }

  ReplicaApplier(EphemeralStore store, PersistentHealthReplication health) {
    this.store = store;
    this.health = health;
    this.selfId = store.localNodeId();
  }

  @Override
  public void apply(List<DistroRecord> records) {
    for (DistroRecord r : records) {
      if (r.owner().equals(selfId)) {
        // The replicator never hands back this member's own writes; if it did, the store already
        // holds them (and a newer local write may be on its way), so leave it alone.
        log.debug("[{}] ignoring own record {} from replication", selfId, r);
        continue;
      }
      if (DistroKeys.isHealthKey(r.key())) {
        applyHealth(r);
        continue;
      }
      try {
        if (r.tombstone()) {
          if (store.removeByPeer(DistroKeys.parseInstanceKey(r.key()))) {
            log.debug("[{}] instance {} deleted by its owner {}", selfId, r.key(), r.owner());
          }
        } else {
          Instance instance = EphemeralInstanceCodec.decode(r.key(), r.value());
          store.putReplica(instance, r.owner(), r.revision());
        }
      } catch (ReplicatedValueException e) {
        log.warn("[{}] skipped a record from {} that cannot be read: {}", selfId, r.owner(),
            e.getMessage());
      } catch (NamingException e) {
        log.warn("[{}] skipped instance {} from {}: {}", selfId, r.key(), r.owner(), e.getMessage());
      }
    }
  }

  private void applyHealth(DistroRecord r) {
    try {
      if (r.tombstone()) {
        health.deletedByPeer(r.key());
      } else {
        health.applyPeer(r.key(), r.owner(), r.value());
      }
    } catch (ReplicatedValueException e) {
      log.warn("[{}] skipped a health record from {} that cannot be read: {}", selfId, r.owner(),
          e.getMessage());
    }
  }

  @Override
  public void remove(List<DistroRecord> records) {
    int removed = 0;
    int healthRecords = 0;
    for (DistroRecord r : records) {
      if (DistroKeys.isHealthKey(r.key())) {
        // Persistent instances keep their last known health: see PersistentHealthReplication.
        try {
          health.droppedByReplication(r.key(), r.owner());
          healthRecords++;
        } catch (ReplicatedValueException e) {
          log.warn("[{}] skipped removing a health record of {}: {}", selfId, r.owner(), e.getMessage());
        }
        continue;
      }
      try {
        // Only if still the same owner's: a beat may have made this member the owner meanwhile.
        if (store.removeReplica(DistroKeys.parseInstanceKey(r.key()), r.owner())) {
          removed++;
        }
      } catch (ReplicatedValueException e) {
        log.warn("[{}] skipped removing a record of {}: {}", selfId, r.owner(), e.getMessage());
      }
    }
    if (removed > 0) {
      log.info("[{}] removed {} replicated instances that their owners no longer hold", selfId, removed);
    }
    if (healthRecords > 0) {
      log.info("[{}] forgot {} health records that their owners no longer hold; the instances keep"
          + " their last known health until the responsible member probes them", selfId, healthRecords);
    }
  }

  /**
   * Repairs the race the periodic reconcile used to find: a peer's record applied here while this
   * member's own newer write of the key was queued for the replicator. Replication has just ranked
   * the own write first, so peers now take this member as the owner; the store must agree, or
   * nobody would check the instance. Runs on the replicator's thread, after every peer record that
   * reached the store before the write was ranked, so what it sees is that race and nothing else.
   */
  @Override
  public void ownWritesStored(List<DistroRecord> records) {
    for (DistroRecord r : records) {
      if (DistroKeys.isHealthKey(r.key())) {
        continue;
      }
      InstanceKey key;
      try {
        key = DistroKeys.parseInstanceKey(r.key());
      } catch (ReplicatedValueException e) {
        continue;
      }
      EphemeralRecord held = store.get(key).orElse(null);
      if (held == null || held.ownerNodeId().equals(selfId)) {
        continue; // agrees, or a local removal is on its way
      }
      if (r.tombstone()) {
        if (store.removeReplica(key, held.ownerNodeId())) {
          log.info("[{}] instance {}: this member's removal outranked {}'s record that arrived while it was"
              + " queued; removed", selfId, key.instanceId(), held.ownerNodeId());
        }
      } else if (store.adopt(held)) {
        log.info("[{}] instance {}: this member's write outranked {}'s record that arrived while it was"
            + " queued; this member owns and checks it", selfId, key.instanceId(), held.ownerNodeId());
      }
    }
  }

  @Override
  public void ready() {
    log.info("[{}] ephemeral replicas loaded; {} instances held", selfId, store.records().size());
  }
}
