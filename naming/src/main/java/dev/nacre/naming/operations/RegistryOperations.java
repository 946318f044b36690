package dev.nacre.naming.operations;

import dev.nacre.consensus.raft.ReplicatedLog;
import dev.nacre.naming.api.NamingConfig;
import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.ephemeral.EphemeralRecord;
import dev.nacre.naming.ephemeral.EphemeralStore;
import dev.nacre.naming.health.HeartbeatTiming;
import dev.nacre.naming.model.Beat;
import dev.nacre.naming.model.BeatResult;
import dev.nacre.naming.model.ClusterInfo;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.InstancePatch;
import dev.nacre.naming.model.Namespace;
import dev.nacre.naming.model.Records;
import dev.nacre.naming.model.RegistryCounts;
import dev.nacre.naming.model.ServiceInfo;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.model.ServicePage;
import dev.nacre.naming.model.ServiceView;
import dev.nacre.naming.registry.RegistryIndex;
import dev.nacre.naming.registry.ServiceSnapshot;
import dev.nacre.naming.validate.NamingValidator;
import dev.nacre.proto.naming.AuthRecord;
import dev.nacre.proto.naming.AuthRecordId;
import dev.nacre.proto.naming.NamingOperation;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registry as the APIs use it: validates, then routes ephemeral instances to the in-memory
 * {@link EphemeralStore} and everything persistent (instances, services, clusters, namespaces) to
 * the {@link ReplicatedLog}, whose state machine updates the shared {@link RegistryIndex} that all
 * reads come from. Thread-safe.
 *
 * <p>Checks that need ephemeral data (the ephemeral/persistent clash, service existence) run here
 * before submitting, since the state machine must decide from replicated state only.
 */
public final class RegistryOperations implements NamingOperations {
  private static final Logger log = LoggerFactory.getLogger(RegistryOperations.class);

  private final NamingConfig config;
  private final Clock clock;
  private final RegistryIndex index;
  private final EphemeralStore ephemeral;
  private final CpWriter cp;
  private final NamingValidator validator;
  private final CatalogOperations catalog;
  private final InstanceOverrides overrides;
  private final ClientInstances clients;
  private final RegistryLimits limits;

  public RegistryOperations(
      NamingConfig config, Clock clock, ReplicatedLog log, RegistryIndex index, EphemeralStore ephemeral) {
    this.config = config;
    this.clock = clock;
    this.index = index;
    this.ephemeral = ephemeral;
    this.cp = new CpWriter(log, config.cpWriteTimeout());
    this.validator = new NamingValidator(config);
    this.catalog = new CatalogOperations(index, cp, validator);
    this.overrides = new InstanceOverrides(index.overrides(), cp);
    // A committed override changes what the index shows for an instance held here (owned or replica).
    index.overrides().addListener(ephemeral::reindex);
    this.limits = new RegistryLimits(index, config.limits());
    this.clients = new ClientInstances(ephemeral, validator, limits);
  }

  @Override
  public void registerInstance(Instance instance) {
    CpWriter.join(registerInstanceAsync(instance));
  }

  @Override
  public CompletableFuture<Void> registerInstanceAsync(Instance instance) {
    validator.instance(instance);
    limits.admit(instance.key());
    if (instance.ephemeral()) {
      ephemeral.register(instance);
      return CompletableFuture.completedFuture(null);
    }
    if (index.instance(instance.key(), true).isPresent()) {
      throw RegistryIndex.clash(instance.key(), "ephemeral", "persistent");
    }
    return cp.submit(
        NamingOperation.newBuilder().setPutInstance(Records.toRecord(instance)).build(),
        "registering persistent instance " + instance.key().instanceId());
  }

  @Override
  public void deregisterInstance(InstanceKey key, boolean ephemeralKind) {
    CpWriter.join(deregisterInstanceAsync(key, ephemeralKind));
  }

  @Override
  public CompletableFuture<Void> deregisterInstanceAsync(InstanceKey key, boolean ephemeralKind) {
    validator.instanceKey(key);
    if (ephemeralKind) {
      ephemeral.remove(key);
      return overrides.endOnDeregister(key);
    }
    // Submitted even when absent here: this node may lag behind the leader.
    return cp.submit(
        NamingOperation.newBuilder().setRemoveInstance(Records.toProto(key)).build(),
        "deregistering persistent instance " + key.instanceId());
  }

  /** For an ephemeral instance, weight, enabled and metadata become its operator override. */
  @Override
  public void updateInstance(Instance instance) {
    validator.instance(instance);
    existing(instance.key(), instance.ephemeral());
    if (instance.ephemeral()) {
      overrides.edit(instance.key(), new InstancePatch(Optional.of(instance.weight()),
          Optional.of(instance.enabled()), Optional.empty(), Optional.of(instance.metadata())));
      return;
    }
    registerInstance(instance);
  }

  @Override
  public void patchInstance(InstanceKey key, boolean ephemeralKind, InstancePatch patch) {
    validator.instanceKey(key);
    validator.patch(patch);
    Instance current = existing(key, ephemeralKind);
    if (ephemeralKind) {
      overrides.edit(key, patch);
      return;
    }
    registerInstance(
        new Instance(
            key,
            patch.weight().orElse(current.weight()),
            patch.healthy().orElse(current.healthy()),
            patch.enabled().orElse(current.enabled()),
            ephemeralKind,
            patch.metadata().orElse(current.metadata())));
  }

  @Override
  public Instance getInstance(InstanceKey key) {
    validator.instanceKey(key);
    return index.instance(key).orElseThrow(() -> instanceNotFound(key, ""));
  }

  @Override
  public ServiceView listInstances(
      ServiceKey service, Set<String> clusters, boolean healthyOnly, boolean linearizable) {
    validator.serviceKey(service);
    validator.clusterNames(clusters);
    if (linearizable) {
      cp.readBarrier("linearizable read of service " + service.groupedName());
    }
    return InstanceSelection.select(index.snapshot(service), clusters, healthyOnly, clock.millis());
  }

  @Override
  public BeatResult beat(Beat beat) {
    validator.instanceKey(beat.key());
    Optional<EphemeralRecord> known = ephemeral.beat(beat.key());
    if (known.isPresent()) {
      return new BeatResult(true, interval(known.get().instance()));
    }
    if (beat.fullInstance().isEmpty()) {
      return new BeatResult(false, config.defaultBeatInterval().toMillis());
    }
    Instance full = beat.fullInstance().get();
    Instance revived = new Instance(beat.key(), full.weight(), true, full.enabled(), true, full.metadata());
    validator.instance(revived);
    ephemeral.register(revived);
    log.info("Re-created instance {} from a beat that carried it", beat.key().instanceId());
    return new BeatResult(true, interval(revived));
  }

  private long interval(Instance instance) {
    return HeartbeatTiming.of(instance, config).beatIntervalMillis();
  }

  @Override
  public List<Instance> allInstances(ServiceKey service) {
    validator.serviceKey(service);
    return index.snapshot(service).instances();
  }

  @Override
  public void createService(ServiceInfo service) {
    limits.admitService(service.key());
    catalog.createService(service);
  }

  @Override
  public void updateService(ServiceInfo service) {
    catalog.updateService(service);
  }

  @Override
  public void deleteService(ServiceKey service) {
    catalog.deleteService(service);
  }

  @Override
  public ServiceInfo getService(ServiceKey service) {
    return catalog.getService(service);
  }

  @Override
  public ServicePage listServices(String namespaceId, String group, int pageNo, int pageSize) {
    return catalog.listServices(namespaceId, group, pageNo, pageSize);
  }

  @Override
  public List<Namespace> listNamespaces() {
    return catalog.listNamespaces();
  }

  @Override
  public void createNamespace(Namespace namespace) {
    catalog.createNamespace(namespace);
  }

  @Override
  public void putAuthRecord(String kind, String name, byte[] value) {
    cp.write(NamingOperation.newBuilder().setPutAuthRecord(authRecord(kind, name, value)).build(),
        "storing " + kind + " " + name);
  }

  @Override
  public void createAuthRecord(String kind, String name, byte[] value) {
    // The state machine's refusal (it exists) comes back as CONFLICT.
    cp.write(NamingOperation.newBuilder().setCreateAuthRecord(authRecord(kind, name, value)).build(),
        "creating " + kind + " " + name);
  }

  @Override
  public void removeAuthRecord(String kind, String name) {
    cp.write(NamingOperation.newBuilder().setRemoveAuthRecord(
            AuthRecordId.newBuilder().setKind(kind).setName(name)).build(),
        "removing " + kind + " " + name);
  }

  private static AuthRecord authRecord(String kind, String name, byte[] value) {
    return AuthRecord.newBuilder().setKind(kind).setName(name)
        .setValue(ByteString.copyFrom(value)).build();
  }

  @Override
  public void updateNamespace(Namespace namespace) {
    catalog.updateNamespace(namespace);
  }

  @Override
  public void deleteNamespace(String namespaceId) {
    catalog.deleteNamespace(namespaceId);
  }

  @Override
  public void updateCluster(ClusterInfo cluster) {
    catalog.updateCluster(cluster);
  }

  @Override
  public ClusterInfo getCluster(ServiceKey service, String clusterName) {
    return catalog.getCluster(service, clusterName);
  }

  @Override
  public RegistryCounts counts() {
    int services = 0;
    int ephemeralCount = 0;
    int persistentCount = 0;
    for (RegistryCounts c : countsByNamespace().values()) {
      services += c.services();
      ephemeralCount += c.ephemeralInstances();
      persistentCount += c.persistentInstances();
    }
    return new RegistryCounts(services, ephemeralCount, persistentCount);
  }

  @Override
  public Map<String, RegistryCounts> countsByNamespace() {
    Map<String, int[]> sums = new TreeMap<>(); // namespace -> {services, ephemeral, persistent}
    for (ServiceSnapshot service : index.allServices()) {
      int[] sum = sums.computeIfAbsent(service.key().namespaceId(), n -> new int[3]);
      int persistent = service.persistentInstances().size();
      sum[0]++;
      sum[1] += service.instances().size() - persistent;
      sum[2] += persistent;
    }
    Map<String, RegistryCounts> counts = new TreeMap<>();
    sums.forEach((namespace, sum) -> counts.put(namespace, new RegistryCounts(sum[0], sum[1], sum[2])));
    return counts;
  }

  @Override
  public void registerClientInstance(String clientId, Instance instance) {
    clients.register(clientId, instance);
  }

  @Override
  public void replaceClientInstances(String clientId, ServiceKey service, List<Instance> instances) {
    clients.replace(clientId, service, instances);
  }

  @Override
  public void deregisterClientInstance(String clientId, InstanceKey key) {
    if (!clients.deregister(clientId, key)) {
      deregisterInstance(key, true);
      return;
    }
    // An explicit deregister ends the operator's edits; a closed connection (removeClient) does
    // not, so that they survive the client's redo on another node.
    overrides.endOnDeregister(key).join();
  }

  @Override
  public int removeClient(String clientId) {
    return clients.removeClient(clientId);
  }

  @Override
  public List<InstanceKey> clientInstances(String clientId) {
    return ephemeral.recordsOfClient(clientId).stream().map(EphemeralRecord::key)
        .sorted(java.util.Comparator.comparing(InstanceKey::instanceId)).toList();
  }

  private Instance existing(InstanceKey key, boolean ephemeralKind) {
    return index
        .instance(key, ephemeralKind)
        .orElseThrow(() -> instanceNotFound(key, ephemeralKind ? "ephemeral " : "persistent "));
  }

  private static NamingException instanceNotFound(InstanceKey key, String kind) {
    return NamingException.notFound(
        "instance not exist: " + kind + "instance " + key.ip() + ":" + key.port() + " in cluster "
            + key.cluster() + " of service " + key.service().groupedName() + " (namespace "
            + key.service().namespaceId() + ")");
  }
}
