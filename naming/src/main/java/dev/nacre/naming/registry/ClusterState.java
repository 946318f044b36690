package dev.nacre.naming.registry;

import dev.nacre.naming.model.ClusterInfo;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One cluster of a service, immutable: its settings (if ever configured) and its instances, the
 * ephemeral and the persistent ones kept apart so that neither path can overwrite the other.
 */
record ClusterState(
    Optional<ClusterInfo> info,
    Map<InstanceKey, Instance> ephemeral,
    Map<InstanceKey, Instance> persistent) {

  static final ClusterState EMPTY = new ClusterState(Optional.empty(), Map.of(), Map.of());

  boolean isEmpty() {
    return info.isEmpty() && ephemeral.isEmpty() && persistent.isEmpty();
  }

  boolean hasInstances() {
    return !ephemeral.isEmpty() || !persistent.isEmpty();
  }

  ClusterState withInfo(Optional<ClusterInfo> value) {
    return new ClusterState(value, ephemeral, persistent);
  }

  ClusterState withInstance(Instance instance) {
    if (instance.ephemeral()) {
      return new ClusterState(info, put(ephemeral, instance), persistent);
    }
    return new ClusterState(info, ephemeral, put(persistent, instance));
  }

  ClusterState without(InstanceKey key, boolean ephemeralKind) {
    if (!(ephemeralKind ? ephemeral : persistent).containsKey(key)) {
      return this;
    }
    if (ephemeralKind) {
      return new ClusterState(info, remove(ephemeral, key), persistent);
    }
    return new ClusterState(info, ephemeral, remove(persistent, key));
  }

  ClusterState withoutPersistentState() {
    return new ClusterState(Optional.empty(), ephemeral, Map.of());
  }

  private static Map<InstanceKey, Instance> put(Map<InstanceKey, Instance> map, Instance instance) {
    Map<InstanceKey, Instance> copy = new HashMap<>(map);
    copy.put(instance.key(), instance);
    return Collections.unmodifiableMap(copy);
  }

  private static Map<InstanceKey, Instance> remove(Map<InstanceKey, Instance> map, InstanceKey key) {
    if (!map.containsKey(key)) {
      return map;
    }
    Map<InstanceKey, Instance> copy = new HashMap<>(map);
    copy.remove(key);
    return Collections.unmodifiableMap(copy);
  }
}
