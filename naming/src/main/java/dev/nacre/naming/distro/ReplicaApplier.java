package dev.nacre.naming.distro;

import dev.nacre.consensus.distro.DistroHandler;
import dev.nacre.consensus.distro.DistroRecord;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies what peers replicate outside the ephemeral store: health records of persistent
 * instances go to {@link PersistentHealthReplication}. Ephemeral instances never come here: the
 * store is their home ({@link EphemeralHome}). Any other key is not this version's and is logged.
 */
final class ReplicaApplier implements DistroHandler {
  private static final Logger log = LoggerFactory.getLogger(ReplicaApplier.class);

  private final PersistentHealthReplication health;
  private final String selfId;
  private final java.util.function.IntSupplier instancesHeld;

  ReplicaApplier(String selfId, PersistentHealthReplication health,
      java.util.function.IntSupplier instancesHeld) {
    this.selfId = selfId;
    this.health = health;
    this.instancesHeld = instancesHeld;
  }

  @Override
  public void apply(List<DistroRecord> records) {
    for (DistroRecord r : records) {
      if (r.owner().equals(selfId)) {
        continue; // the replicator never hands back this member's own writes
      }
      if (!DistroKeys.isHealthKey(r.key())) {
        log.warn("[{}] skipped a record from {} with a key this version does not know: {}", selfId,
            r.owner(), DistroKeys.abbreviate(r.key()));
        continue;
      }
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
  }

  @Override
  public void remove(List<DistroRecord> records) {
    int healthRecords = 0;
    for (DistroRecord r : records) {
      if (!DistroKeys.isHealthKey(r.key())) {
        continue;
      }
      // Persistent instances keep their last known health: see PersistentHealthReplication.
      try {
        health.droppedByReplication(r.key(), r.owner());
        healthRecords++;
      } catch (ReplicatedValueException e) {
        log.warn("[{}] skipped removing a health record of {}: {}", selfId, r.owner(), e.getMessage());
      }
    }
    if (healthRecords > 0) {
      log.info("[{}] forgot {} health records that their owners no longer hold; the instances keep"
          + " their last known health until the responsible member probes them", selfId, healthRecords);
    }
  }

  @Override
  public void ready() {
    log.info("[{}] ephemeral replicas loaded; {} instances held", selfId, instancesHeld.getAsInt());
  }
}
