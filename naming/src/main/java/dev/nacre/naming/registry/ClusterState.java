package dev.nacre.naming.registry;

import dev.nacre.naming.model.ClusterInfo;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import java.util.Optional;

/**
 * One cluster of a service, immutable: its settings (if ever configured) and its instances, the
 * ephemeral and the persistent ones kept apart so that neither path can overwrite the other.
 * Changing one instance copies O(log n) of the cluster (see {@link InstanceTree}).
 */
record ClusterState(Optional<ClusterInfo> info, InstanceTree ephemeral, InstanceTree persistent) {

  static final ClusterState EMPTY = new ClusterState(Optional.empty(), InstanceTree.EMPTY, InstanceTree.EMPTY);

  boolean isEmpty() {
    return info.isEmpty() && ephemeral.isEmpty() && persistent.isEmpty();
  }

  boolean hasInstances() {
    return !ephemeral.isEmpty() || !persistent.isEmpty();
  }

  InstanceTree instances(boolean ephemeralKind) {
    return ephemeralKind ? ephemeral : persistent;
  }

  ClusterState withInfo(Optional<ClusterInfo> value) {
    return new ClusterState(value, ephemeral, persistent);
  }

  ClusterState withInstance(Instance instance) {
    if (instance.ephemeral()) {
      return new ClusterState(info, ephemeral.with(instance), persistent);
    }
    return new ClusterState(info, ephemeral, persistent.with(instance));
  }

  ClusterState without(InstanceKey key, boolean ephemeralKind) {
    InstanceTree current = instances(ephemeralKind);
    InstanceTree next = current.without(key);
    if (next == current) {
      return this;
    }
    return ephemeralKind
        ? new ClusterState(info, next, persistent)
        : new ClusterState(info, ephemeral, next);
  }

  /** This cluster's ephemeral instances with another persistent part (settings and instances). */
  ClusterState withPersistentPart(Optional<ClusterInfo> newInfo, InstanceTree newPersistent) {
    return new ClusterState(newInfo, ephemeral, newPersistent);
  }

  /** Whether the persistent parts (settings, persistent instances) hold the same values. */
  boolean samePersistentPart(ClusterState other) {
    return info.equals(other.info) && persistent.sameInstances(other.persistent);
  }
}
