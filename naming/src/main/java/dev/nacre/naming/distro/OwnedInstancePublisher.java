package dev.nacre.naming.distro;

import dev.nacre.consensus.distro.DistroReplicator;
import dev.nacre.naming.ephemeral.EphemeralChangeListener;
import dev.nacre.naming.ephemeral.EphemeralRecord;
import dev.nacre.naming.model.InstanceKey;
import java.util.Optional;

/**
 * Sends the changes this member makes to instances it owns (register, update, patch, health
 * change, takeover, expiry, deregister) to the replicator. Runs under the store's per-key lock,
 * so the replicator receives one key's changes in the order they happened; publishing only
 * enqueues.
 */
final class OwnedInstancePublisher implements EphemeralChangeListener {
  private final String selfId;
  private final DistroReplicator replicator;

  OwnedInstancePublisher(String selfId, DistroReplicator replicator) {
    this.selfId = selfId;
    this.replicator = replicator;
  }

  @Override
  public void onLocalChange(InstanceKey key, Optional<EphemeralRecord> record) {
    String distroKey = DistroKeys.instanceKey(key);
    if (record.isEmpty()) {
      replicator.delete(distroKey);
    } else if (record.get().ownerNodeId().equals(selfId)) {
      replicator.publish(distroKey, EphemeralInstanceCodec.encode(record.get().instance()));
    }
  }

  @Override
  public String toString() {
    return "distro publisher of " + selfId;
  }
}
