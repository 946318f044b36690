package dev.nacre.naming.registry;

import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.model.ClusterInfo;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.Namespace;
import dev.nacre.naming.model.ServiceInfo;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.registry.OverrideTable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The in-memory registry: namespace -> service -> cluster -> instances, for every read the APIs
 * serve. Both write paths feed it: the ephemeral store on request threads, the state machine on
 * the apply thread. It is a view, never the source of truth: the ephemeral store and RocksDB are.
 *
 * <p>Thread-safe. Each service is an immutable {@link ServiceSnapshot} replaced atomically per
 * write, so reads take no lock and see a consistent service.
 */
public final class RegistryIndex {
  private static final Logger log = LoggerFactory.getLogger(RegistryIndex.class);
  private final ConcurrentHashMap<String, ConcurrentHashMap<ServiceKey, ServiceSnapshot>> byNamespace =
      new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Namespace> namespaces = new ConcurrentHashMap<>();
  private final List<ServiceChangeListener> listeners = new CopyOnWriteArrayList<>();
  private final OverrideTable overrides = new OverrideTable();

  /** Operators' overrides of ephemeral instances, laid over them by {@link #putEphemeral}. */
  public OverrideTable overrides() {
    return overrides;
  }

  public void addListener(ServiceChangeListener listener) {
    listeners.add(listener);
  }

  public void removeListener(ServiceChangeListener listener) {
    listeners.remove(listener);
  }

  /** The service as it is now; empty when it has neither settings nor instances. */
  public Optional<ServiceSnapshot> service(ServiceKey key) {
    Map<ServiceKey, ServiceSnapshot> services = byNamespace.get(key.namespaceId());
    return Optional.ofNullable(services == null ? null : services.get(key))
        .filter(ServiceSnapshot::exists);
  }

  /** The snapshot including services that only have cluster settings (for probes, deletion). */
  public ServiceSnapshot snapshot(ServiceKey key) {
    Map<ServiceKey, ServiceSnapshot> services = byNamespace.get(key.namespaceId());
    ServiceSnapshot s = services == null ? null : services.get(key);
    return s == null ? ServiceSnapshot.empty(key) : s;
  }

  /** Existing services of one namespace, any group, unordered. */
  public List<ServiceSnapshot> services(String namespaceId) {
    Map<ServiceKey, ServiceSnapshot> services = byNamespace.get(namespaceId);
    if (services == null) {
      return List.of();
    }
    return services.values().stream().filter(ServiceSnapshot::exists).toList();
  }

  /** How many services one namespace holds (counting those with only cluster settings), in O(1). */
  public int serviceCount(String namespaceId) {
    Map<ServiceKey, ServiceSnapshot> services = byNamespace.get(namespaceId);
    return services == null ? 0 : services.size();
  }

  /** Every service of every namespace, including those with only cluster settings. */
  public List<ServiceSnapshot> allServices() {
    List<ServiceSnapshot> all = new ArrayList<>();
    byNamespace.values().forEach(m -> all.addAll(m.values()));
    return all;
  }

  /** The instance with this key of either kind (the clash rule allows at most one). */
  public Optional<Instance> instance(InstanceKey key) {
    ServiceSnapshot s = snapshot(key.service());
    return s.instance(key, true).or(() -> s.instance(key, false));
  }

  public Optional<Instance> instance(InstanceKey key, boolean ephemeral) {
    return snapshot(key.service()).instance(key, ephemeral);
  }

  /**
   * Adds or replaces an ephemeral instance, as registered: the index keeps it with its operator's
   * override (if any) laid over it. CONFLICT when a persistent instance holds the same ip:port in
   * the same cluster: one address cannot be both kinds.
   */
  public void putEphemeral(Instance registered) {
    Instance instance = overrides.applyTo(registered);
    InstanceKey key = instance.key();
    update(
        key.service(),
        s -> {
          if (s.instance(key, false).isPresent()) {
            throw clash(key, "persistent", "ephemeral");
          }
          return s.withCluster(key.cluster(), c -> c.withInstance(instance));
        });
  }

  /**
   * Adds or replaces a persistent instance without the clash check: the state machine must apply
   * every committed entry the same way on every node, and ephemeral data differs between nodes.
   * The operations layer checks the clash before it submits.
   */
  public void putPersistent(Instance instance) {
    update(instance.key().service(), s -> s.withCluster(instance.key().cluster(), c -> c.withInstance(instance)));
  }

  public void remove(InstanceKey key, boolean ephemeral) {
    update(key.service(), s -> s.withCluster(key.cluster(), c -> c.without(key, ephemeral)));
  }

  /**
   * Sets the soft health of an instance if it is still there, keeping the rest of it.
   *
   * @return whether health changed
   */
  public boolean setHealth(InstanceKey key, boolean ephemeral, boolean healthy) {
    boolean[] changed = {false};
    update(
        key.service(),
        s -> {
          Optional<Instance> current = s.instance(key, ephemeral);
          if (current.isEmpty() || current.get().healthy() == healthy) {
            return s;
          }
          changed[0] = true;
          return s.withCluster(key.cluster(), c -> c.withInstance(current.get().withHealthy(healthy)));
        });
    return changed[0];
  }

  /** CONFLICT message for an address already registered with the other ephemeral flag. */
  public static NamingException clash(InstanceKey key, String existingKind, String newKind) {
    return new NamingException(
        NamingException.Kind.CONFLICT,
        "instance " + key.ip() + ":" + key.port() + " in cluster " + key.cluster() + " of service "
            + key.service().groupedName() + " (namespace " + key.service().namespaceId()
            + ") is already registered as " + existingKind + "; it cannot also be " + newKind
            + ". Deregister it first, or use another port or cluster.");
  }

  public void putServiceInfo(ServiceInfo info) {
    update(info.key(), s -> s.withExplicitInfo(Optional.of(info)));
  }

  public void removeServiceInfo(ServiceKey key) {
    update(key, s -> s.withExplicitInfo(Optional.empty()));
  }

  public void putCluster(ClusterInfo info) {
    update(info.service(), s -> s.withCluster(info.name(), c -> c.withInfo(Optional.of(info))));
  }

  public void removeCluster(ServiceKey service, String name) {
    update(service, s -> s.withCluster(name, c -> c.withInfo(Optional.empty())));
  }

  /** Created namespaces; {@code public} is implicit and not listed here. */
  public Collection<Namespace> namespaces() {
    return List.copyOf(namespaces.values());
  }

  public Optional<Namespace> namespace(String id) {
    return Optional.ofNullable(namespaces.get(id));
  }

  public void putNamespace(Namespace namespace) {
    namespaces.put(namespace.id(), namespace);
  }

  public void removeNamespace(String id) {
    namespaces.remove(id);
  }

  /**
   * Drops every persistent record (instances, service and cluster settings, namespaces,
   * operators' overrides) and keeps ephemeral instances.
   */
  public void clearPersistentState() {
    replacePersistentState(new PersistentState());
  }

  /**
   * Replaces the whole persistent part (e.g. with an installed snapshot's) and keeps ephemeral
   * instances. Each service moves from its old to its new persistent part in one step, so a reader
   * or listener never sees an instance or override that both states hold go missing in between;
   * listeners hear only of services whose settings or instances differ.
   */
  public void replacePersistentState(PersistentState next) {
    Map<String, Namespace> wantedNamespaces = new HashMap<>();
    next.namespaces.forEach(n -> wantedNamespaces.put(n.id(), n));
    namespaces.putAll(wantedNamespaces);
    namespaces.keySet().retainAll(wantedNamespaces.keySet());

    Set<ServiceKey> keys = new HashSet<>(next.services.keySet());
    byNamespace.values().forEach(services -> keys.addAll(services.keySet()));
    PersistentState.ServicePart none = new PersistentState.ServicePart();
    for (ServiceKey key : keys) {
      PersistentState.ServicePart part = next.services.getOrDefault(key, none);
      update(key, s -> s.withPersistentState(part.info, part.clusters));
    }
    // Last: a changed override re-lays itself over ephemeral instances through its listener.
    overrides.replaceAll(next.overrides);
  }

  private void update(ServiceKey key, UnaryOperator<ServiceSnapshot> change) {
    ConcurrentHashMap<ServiceKey, ServiceSnapshot> services =
        byNamespace.computeIfAbsent(key.namespaceId(), ns -> new ConcurrentHashMap<>());
    boolean[] changed = {false};
    // compute() serialises writers of one service; readers keep reading the previous snapshot.
    services.compute(
        key,
        (k, current) -> {
          ServiceSnapshot before = current == null ? ServiceSnapshot.empty(k) : current;
          ServiceSnapshot next = change.apply(before);
          changed[0] = next != before;
          return next.isVacant() ? null : next;
        });
    if (changed[0]) {
      for (ServiceChangeListener l : listeners) {
        try {
          l.onServiceChanged(key);
        } catch (RuntimeException e) {
          log.warn("Service change listener {} failed for {}", l, key.groupedName(), e);
        }
      }
    }
  }
}
