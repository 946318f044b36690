package dev.nacre.naming.ephemeral;

import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;

/**
 * One ephemeral instance as its owner keeps it, in the shape Distro will replicate: keyed by
 * instance, stamped with the owning node and a revision that grows with every change there.
 *
 * @param ownerNodeId node that accepted the registration and runs its heartbeat checks
 * @param revision increases with every change made by the owner; peers keep the highest
 * @param lastBeatMillis clock millis of the last registration or beat
 */
public record EphemeralRecord(Instance instance, String ownerNodeId, long revision, long lastBeatMillis) {
  public InstanceKey key() {
    return instance.key();
  }
}
