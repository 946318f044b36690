package dev.nacre.naming.registry;

import dev.nacre.naming.model.ClusterInfo;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceInfo;
import dev.nacre.naming.model.ServiceKey;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * One service as the index holds it at a moment: immutable, so readers never lock and always see
 * a consistent set of instances. Writers replace the whole snapshot.
 */
public final class ServiceSnapshot {
  static final Comparator<Instance> ORDER =
      Comparator.comparing((Instance i) -> i.key().cluster())
          .thenComparing(i -> i.key().ip())
          .thenComparingInt(i -> i.key().port())
          .thenComparing(Instance::ephemeral);

  private final ServiceKey key;
  private final Optional<ServiceInfo> explicitInfo;
  private final Map<String, ClusterState> clusters;
  // Sorted once per write so that every read of a busy service is a plain list walk.
  private final List<Instance> instances;

  ServiceSnapshot(ServiceKey key, Optional<ServiceInfo> explicitInfo, Map<String, ClusterState> clusters) {
    this.key = key;
    this.explicitInfo = explicitInfo;
    this.clusters = Collections.unmodifiableMap(new TreeMap<>(clusters));
    List<Instance> all = new ArrayList<>();
    for (ClusterState c : this.clusters.values()) {
      all.addAll(c.ephemeral().values());
      all.addAll(c.persistent().values());
    }
    all.sort(ORDER);
    this.instances = List.copyOf(all);
  }

  static ServiceSnapshot empty(ServiceKey key) {
    return new ServiceSnapshot(key, Optional.empty(), Map.of());
  }

  public ServiceKey key() {
    return key;
  }

  /** The settings a client created, if it did. */
  public Optional<ServiceInfo> explicitInfo() {
    return explicitInfo;
  }

  /** The service's settings, Nacos' defaults when it exists only through its instances. */
  public ServiceInfo info() {
    return explicitInfo.orElseGet(() -> ServiceInfo.defaults(key));
  }

  /** A service exists once created explicitly or while it has an instance. */
  public boolean exists() {
    return explicitInfo.isPresent() || !instances.isEmpty();
  }

  public boolean hasInstances() {
    return !instances.isEmpty();
  }

  public boolean hasPersistentInstances() {
    return clusters.values().stream().anyMatch(c -> !c.persistent().isEmpty());
  }

  /** Every instance, both kinds, sorted by cluster, ip and port. */
  public List<Instance> instances() {
    return instances;
  }

  /** Instances of the named clusters, all clusters when {@code names} is empty. */
  public List<Instance> instances(Set<String> names) {
    if (names.isEmpty()) {
      return instances;
    }
    return instances.stream().filter(i -> names.contains(i.key().cluster())).toList();
  }

  public List<Instance> persistentInstances() {
    return instances.stream().filter(i -> !i.ephemeral()).toList();
  }

  /** Names of clusters that have instances or settings, sorted. */
  public Set<String> clusterNames() {
    return clusters.keySet();
  }

  /** The cluster's settings, Nacos' defaults (TCP on the instance port) when never configured. */
  public ClusterInfo cluster(String name) {
    ClusterState state = clusters.get(name);
    return state == null || state.info().isEmpty()
        ? ClusterInfo.defaults(key, name)
        : state.info().get();
  }

  /** Settings of clusters that were configured explicitly. */
  public List<ClusterInfo> configuredClusters() {
    return clusters.values().stream().flatMap(c -> c.info().stream()).toList();
  }

  public Optional<Instance> instance(InstanceKey instanceKey, boolean ephemeral) {
    ClusterState state = clusters.get(instanceKey.cluster());
    if (state == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(
        ephemeral ? state.ephemeral().get(instanceKey) : state.persistent().get(instanceKey));
  }

  ServiceSnapshot withExplicitInfo(Optional<ServiceInfo> value) {
    return new ServiceSnapshot(key, value, clusters);
  }

  ServiceSnapshot withCluster(String name, UnaryOperator<ClusterState> change) {
    ClusterState current = clusters.getOrDefault(name, ClusterState.EMPTY);
    ClusterState updated = change.apply(current);
    if (updated == current) {
      return this;
    }
    TreeMap<String, ClusterState> copy = new TreeMap<>(clusters);
    if (updated.isEmpty()) {
      copy.remove(name);
    } else {
      copy.put(name, updated);
    }
    return new ServiceSnapshot(key, explicitInfo, copy);
  }

  ServiceSnapshot withoutPersistentState() {
    TreeMap<String, ClusterState> copy = new TreeMap<>();
    clusters.forEach(
        (name, state) -> {
          ClusterState kept = state.withoutPersistentState();
          if (!kept.isEmpty()) {
            copy.put(name, kept);
          }
        });
    return new ServiceSnapshot(key, Optional.empty(), copy);
  }

  /** Nothing left worth keeping: no settings, no cluster settings, no instances. */
  boolean isVacant() {
    return explicitInfo.isEmpty() && clusters.isEmpty();
  }
}
