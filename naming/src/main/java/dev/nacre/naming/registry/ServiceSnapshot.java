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
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * One service as the index holds it at a moment: immutable, so readers never lock and always see
 * a consistent set of instances. Writers replace the whole snapshot, copying only the cluster map
 * and the O(log n) path of the changed instance; the sorted instance list is built on the first
 * read of a snapshot and kept, so a burst of writes costs no sorting and a burst of reads sorts
 * once. Readers may also keep what they derive from a snapshot in its {@link #memo}.
 */
public final class ServiceSnapshot {
  static final Comparator<Instance> ORDER =
      Comparator.comparing((Instance i) -> i.key().cluster())
          .thenComparing(i -> i.key().ip())
          .thenComparingInt(i -> i.key().port())
          .thenComparing(Instance::ephemeral);

  /** Derived values a snapshot keeps at most; more (odd cluster filters) are computed each time. */
  static final int MEMO_LIMIT = 64;

  private final ServiceKey key;
  private final Optional<ServiceInfo> explicitInfo;
  private final SortedMap<String, ClusterState> clusters;
  // Built by the first reader; a race builds it twice, both equal.
  private volatile List<Instance> instances;
  private volatile ConcurrentHashMap<Object, Object> memo;

  private ServiceSnapshot(
      ServiceKey key, Optional<ServiceInfo> explicitInfo, SortedMap<String, ClusterState> clusters) {
    this.key = key;
    this.explicitInfo = explicitInfo;
    this.clusters = Collections.unmodifiableSortedMap(clusters);
  }

  static ServiceSnapshot empty(ServiceKey key) {
    return new ServiceSnapshot(key, Optional.empty(), new TreeMap<>());
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
    return explicitInfo.isPresent() || hasInstances();
  }

  public boolean hasInstances() {
    for (ClusterState c : clusters.values()) {
      if (c.hasInstances()) {
        return true;
      }
    }
    return false;
  }

  public boolean hasPersistentInstances() {
    return clusters.values().stream().anyMatch(c -> !c.persistent().isEmpty());
  }

  /** How many instances, both kinds, without listing them. */
  public int instanceCount() {
    int n = 0;
    for (ClusterState c : clusters.values()) {
      n += c.instances(true).size() + c.instances(false).size();
    }
    return n;
  }

  /** Every instance, both kinds, sorted by cluster, ip and port (persistent before ephemeral). */
  public List<Instance> instances() {
    List<Instance> sorted = instances;
    if (sorted == null) {
      sorted = sortedInstances();
      instances = sorted;
    }
    return sorted;
  }

  /** Instances of the named clusters, all clusters when {@code names} is empty. */
  public List<Instance> instances(Set<String> names) {
    if (names.isEmpty()) {
      return instances();
    }
    return instances().stream().filter(i -> names.contains(i.key().cluster())).toList();
  }

  public List<Instance> persistentInstances() {
    List<Instance> out = new ArrayList<>();
    clusters.values().forEach(c -> c.persistent().forEach(out::add));
    return Collections.unmodifiableList(out);
  }

  /**
   * What {@code compute} derives from this snapshot under {@code memoKey}, computed once per
   * snapshot (a later snapshot starts empty, so a change of the service is never served stale).
   * The key must name everything besides the snapshot that the value depends on.
   */
  @SuppressWarnings("unchecked")
  public <T> T memo(Object memoKey, Function<ServiceSnapshot, T> compute) {
    ConcurrentHashMap<Object, Object> values = memoMap();
    Object known = values.get(memoKey);
    if (known != null) {
      return (T) known;
    }
    T value = compute.apply(this);
    if (values.size() < MEMO_LIMIT) {
      Object raced = values.putIfAbsent(memoKey, value);
      return raced == null ? value : (T) raced;
    }
    return value;
  }

  private ConcurrentHashMap<Object, Object> memoMap() {
    ConcurrentHashMap<Object, Object> values = memo;
    if (values == null) {
      synchronized (this) {
        values = memo;
        if (values == null) {
          values = new ConcurrentHashMap<>(4);
          memo = values;
        }
      }
    }
    return values;
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
    return Optional.ofNullable(state.instances(ephemeral).get(instanceKey));
  }

  ServiceSnapshot withExplicitInfo(Optional<ServiceInfo> value) {
    return new ServiceSnapshot(key, value, new TreeMap<>(clusters));
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
    return withPersistentState(Optional.empty(), Map.of());
  }

  /**
   * This service's ephemeral instances with another persistent part: the service's settings and,
   * per cluster, its settings and persistent instances ({@code persistentClusters}' ephemeral
   * parts are ignored). Itself when the persistent part holds the same values, so that replacing
   * the whole persistent state reports only services that really changed.
   */
  ServiceSnapshot withPersistentState(Optional<ServiceInfo> info, Map<String, ClusterState> persistentClusters) {
    boolean same = explicitInfo.equals(info);
    TreeMap<String, ClusterState> next = new TreeMap<>();
    Set<String> names = new TreeSet<>(clusters.keySet());
    names.addAll(persistentClusters.keySet());
    for (String name : names) {
      ClusterState current = clusters.getOrDefault(name, ClusterState.EMPTY);
      ClusterState wanted = persistentClusters.getOrDefault(name, ClusterState.EMPTY);
      same &= current.samePersistentPart(wanted);
      ClusterState merged = current.withPersistentPart(wanted.info(), wanted.persistent());
      if (!merged.isEmpty()) {
        next.put(name, merged);
      }
    }
    return same ? this : new ServiceSnapshot(key, info, next);
  }

  /** Nothing left worth keeping: no settings, no cluster settings, no instances. */
  boolean isVacant() {
    return explicitInfo.isEmpty() && clusters.isEmpty();
  }

  // Each cluster's two trees are sorted by ip and port; merging them gives ORDER within a cluster
  // (persistent first on a tie), and the cluster map is sorted by name.
  private List<Instance> sortedInstances() {
    List<Instance> all = new ArrayList<>();
    List<Instance> ephemeral = new ArrayList<>();
    List<Instance> persistent = new ArrayList<>();
    for (ClusterState c : clusters.values()) {
      ephemeral.clear();
      persistent.clear();
      c.ephemeral().forEach(ephemeral::add);
      c.persistent().forEach(persistent::add);
      int e = 0;
      int p = 0;
      while (e < ephemeral.size() || p < persistent.size()) {
        if (e == ephemeral.size()) {
          all.add(persistent.get(p++));
        } else if (p == persistent.size()) {
          all.add(ephemeral.get(e++));
        } else if (InstanceTree.compare(persistent.get(p).key(), ephemeral.get(e).key()) <= 0) {
          all.add(persistent.get(p++));
        } else {
          all.add(ephemeral.get(e++));
        }
      }
    }
    return Collections.unmodifiableList(all);
  }
}
