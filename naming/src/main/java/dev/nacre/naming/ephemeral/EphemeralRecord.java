package dev.nacre.naming.ephemeral;

import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;

/**
 * One ephemeral instance as its owner keeps it, in the shape Distro will replicate: keyed by
 * instance, stamped with the owning node and a revision that grows with every change there.
 *
 * @param ownerNodeId node that accepted the registration (or took the instance over) and runs its
 *     heartbeat checks; another member's id for a replica
 * @param revision on the owner: increases with every change made there; on a replica: the owner's
 *     Distro revision of the record
 * @param lastBeatMillis clock millis of the last registration or beat on the owner; on a replica,
 *     when the replica was last written here (replicas are never checked)
 */
public record EphemeralRecord(Instance instance, String ownerNodeId, long revision, long lastBeatMillis) {
  public InstanceKey key() {
    return instance.key();
  }
}
