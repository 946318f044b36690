package dev.nacre.naming.api;

import dev.nacre.naming.model.Beat;
import dev.nacre.naming.model.BeatResult;
import dev.nacre.naming.model.ClusterInfo;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.InstancePatch;
import dev.nacre.naming.model.Namespace;
import dev.nacre.naming.model.RegistryCounts;
import dev.nacre.naming.model.ServiceInfo;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.model.ServicePage;
import dev.nacre.naming.model.ServiceView;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Everything the APIs (HTTP Open API, client gRPC) can do to the registry. Ephemeral instances
 * change in memory; persistent instances, services and namespaces go through the replicated log
 * and return once applied on this node.
 *
 * <p>Thread-safe; calls may block up to the configured CP write timeout. Every method validates
 * its input and fails with {@link NamingException} (never {@code null} or {@code false}).
 */
public interface NamingOperations {

  /** Registers or replaces an instance. Idempotent. CONFLICT if the same ip:port in the same
   * cluster already exists with the other ephemeral flag. */
  void registerInstance(Instance instance);

  /**
   * Removes an instance; removing an absent one succeeds (as in Nacos). Deregistering an ephemeral
   * instance also ends its operator override, so that registering it again starts clean.
   */
  void deregisterInstance(InstanceKey key, boolean ephemeral);

  /**
   * {@link #registerInstance} for callers that must not wait: invalid input throws at once, an
   * ephemeral instance is registered before this returns, and a persistent one completes the future
   * once applied on this node (or fails it with {@link NamingException} within the CP timeout).
   */
  CompletableFuture<Void> registerInstanceAsync(Instance instance);

  /** {@link #deregisterInstance} for callers that must not wait; see {@link #registerInstanceAsync}. */
  CompletableFuture<Void> deregisterInstanceAsync(InstanceKey key, boolean ephemeral);

  /**
   * Replaces an existing instance's weight, enabled, healthy and metadata. NOT_FOUND if absent.
   * For an ephemeral instance, weight, enabled and metadata are committed through the replicated
   * log as its operator override, laid over whatever its client registers (now or again later, on
   * any node) until it is deregistered or has been gone for the retention period; health stays
   * the client's. UNAVAILABLE without a quorum.
   */
  void updateInstance(Instance instance);

  /**
   * Changes only the fields present in the patch. NOT_FOUND if absent. For an ephemeral instance
   * the fields join its operator override, as for {@link #updateInstance}.
   */
  void patchInstance(InstanceKey key, boolean ephemeral, InstancePatch patch);

  /** One instance; NOT_FOUND if absent. */
  Instance getInstance(InstanceKey key);

  /**
   * The instances consumers should see: enabled only; healthy only when asked; all of them when
   * the share of healthy instances is below the service's protection threshold.
   *
   * @param clusters empty for all clusters
   * @param linearizable wait for the replicated log's read barrier first
   */
  ServiceView listInstances(
      ServiceKey service, Set<String> clusters, boolean healthyOnly, boolean linearizable);

  /** Refreshes an ephemeral instance's last beat; revives it if it was unhealthy. */
  BeatResult beat(Beat beat);

  void createService(ServiceInfo service);

  void updateService(ServiceInfo service);

  /** NOT_FOUND if absent; CONFLICT while it still has instances. */
  void deleteService(ServiceKey service);

  /** NOT_FOUND if absent (a service exists once created or once it has an instance). */
  ServiceInfo getService(ServiceKey service);

  /** Instances of a service, every cluster, enabled or not (for the detail view). */
  List<Instance> allInstances(ServiceKey service);

  /** Services of one group in one namespace, sorted by name; pageNo counts from 1. */
  ServicePage listServices(String namespaceId, String group, int pageNo, int pageSize);

  List<Namespace> listNamespaces();

  void createNamespace(Namespace namespace);

  /**
   * Stores a client-authentication record (a user, a role grant, a permission) in the replicated
   * log, replacing one of the same kind and name; returns once applied here. The value is opaque
   * to naming: see {@code dev.nacre.naming.persistent.AuthRecords}.
   */
  void putAuthRecord(String kind, String name, byte[] value);

  /** As {@link #putAuthRecord}, but CONFLICT when a record of that kind and name exists. */
  void createAuthRecord(String kind, String name, byte[] value);

  /** Removes a client-authentication record; removing an absent one succeeds. */
  void removeAuthRecord(String kind, String name);

  void updateNamespace(Namespace namespace);

  /** {@code public} cannot be deleted. */
  void deleteNamespace(String namespaceId);

  /** Sets a cluster's settings (how its persistent instances are probed). NOT_FOUND when the
   * service does not exist. */
  void updateCluster(ClusterInfo cluster);

  /** A cluster's settings, Nacos' defaults (TCP on the instance port) if never set. NOT_FOUND
   * when the service does not exist. */
  ClusterInfo getCluster(ServiceKey service, String clusterName);

  /** How much the registry holds right now, for metrics. */
  RegistryCounts counts();

  /** {@link #counts()} per namespace id (namespaces with at least one service), in one pass. */
  Map<String, RegistryCounts> countsByNamespace();

  // --- Ephemeral instances owned by a client connection (Nacos 2.x gRPC) on this node. ---

  /**
   * Registers an ephemeral instance tied to the client connection {@code clientId}: it is not
   * beat-checked and lives until deregistered or {@link #removeClient}. Replaces the connection's
   * previous instance of the same service (one instance per service per connection).
   */
  void registerClientInstance(String clientId, Instance instance);

  /** Makes {@code instances} the connection's whole set of ephemeral instances of the service. */
  void replaceClientInstances(String clientId, ServiceKey service, List<Instance> instances);

  /**
   * Deregisters an ephemeral instance on behalf of a client connection: the connection's own
   * instance, or else any ephemeral instance with that key (as an HTTP deregistration would).
   */
  void deregisterClientInstance(String clientId, InstanceKey key);

  /** Removes every instance of a connection that closed or died; returns how many. */
  int removeClient(String clientId);

  /** The ephemeral instances this node holds for a client connection, sorted by instance id. */
  List<InstanceKey> clientInstances(String clientId);
}
