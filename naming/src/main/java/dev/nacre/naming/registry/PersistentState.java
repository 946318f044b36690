package dev.nacre.naming.registry;

import dev.nacre.naming.model.ClusterInfo;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceOverride;
import dev.nacre.naming.model.Namespace;
import dev.nacre.naming.model.ServiceInfo;
import dev.nacre.naming.model.ServiceKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The whole persistent part of the registry (namespaces, service and cluster settings, persistent
 * instances, operators' overrides), gathered aside, e.g. from a snapshot, so that
 * {@link RegistryIndex#replacePersistentState} can swap it in at once. Not thread-safe: one loader
 * fills it.
 */
public final class PersistentState {
  /** One service's persistent part: its settings and, per cluster, settings and instances. */
  static final class ServicePart {
    Optional<ServiceInfo> info = Optional.empty();
    final Map<String, ClusterState> clusters = new TreeMap<>();

    private ClusterState cluster(String name) {
      return clusters.getOrDefault(name, ClusterState.EMPTY);
    }
  }

  final List<Namespace> namespaces = new ArrayList<>();
  final List<InstanceOverride> overrides = new ArrayList<>();
  final Map<ServiceKey, ServicePart> services = new HashMap<>();

  public void putNamespace(Namespace namespace) {
    namespaces.add(namespace);
  }

  public void putServiceInfo(ServiceInfo info) {
    part(info.key()).info = Optional.of(info);
  }

  public void putCluster(ClusterInfo info) {
    ServicePart part = part(info.service());
    part.clusters.put(info.name(), part.cluster(info.name()).withInfo(Optional.of(info)));
  }

  public void putPersistent(Instance instance) {
    ServicePart part = part(instance.key().service());
    String cluster = instance.key().cluster();
    ClusterState current = part.cluster(cluster);
    part.clusters.put(cluster, current.withPersistentPart(current.info(), current.persistent().with(instance)));
  }

  public void putOverride(InstanceOverride override) {
    overrides.add(override);
  }

  private ServicePart part(ServiceKey key) {
    return services.computeIfAbsent(key, k -> new ServicePart());
  }
}
