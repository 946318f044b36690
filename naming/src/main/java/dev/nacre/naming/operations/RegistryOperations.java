package dev.nacre.naming.operations;

import dev.nacre.consensus.raft.ReplicatedLog;
import dev.nacre.naming.NamingConfig;
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
import dev.nacre.naming.model.ServiceInfo;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.model.ServicePage;
import dev.nacre.naming.model.ServiceView;
import dev.nacre.naming.persistent.Records;
import dev.nacre.naming.registry.RegistryIndex;
import dev.nacre.naming.registry.ServiceSnapshot;
import dev.nacre.naming.validate.NamingValidator;
import dev.nacre.proto.naming.NamingOperation;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
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

  public RegistryOperations(
      NamingConfig config, Clock clock, ReplicatedLog log, RegistryIndex index, EphemeralStore ephemeral) {
    this.config = config;
    this.clock = clock;
    this.index = index;
    this.ephemeral = ephemeral;
    this.cp = new CpWriter(log, config.cpWriteTimeout());
    this.validator = new NamingValidator(config);
  }

  @Override
  public void registerInstance(Instance instance) {
    validator.instance(instance);
    if (instance.ephemeral()) {
      ephemeral.register(instance);
      return;
    }
    if (index.instance(instance.key(), true).isPresent()) {
      throw RegistryIndex.clash(instance.key(), "ephemeral", "persistent");
    }
    cp.write(
        NamingOperation.newBuilder().setPutInstance(Records.toRecord(instance)).build(),
        "registering persistent instance " + instance.key().instanceId());
  }

  @Override
  public void deregisterInstance(InstanceKey key, boolean ephemeralKind) {
    validator.instanceKey(key);
    if (ephemeralKind) {
      ephemeral.remove(key);
      return;
    }
    // Submitted even when absent here: this node may lag behind the leader.
    cp.write(
        NamingOperation.newBuilder().setRemoveInstance(Records.toProto(key)).build(),
        "deregistering persistent instance " + key.instanceId());
  }

  @Override
  public void updateInstance(Instance instance) {
    validator.instance(instance);
    existing(instance.key(), instance.ephemeral());
    registerInstance(instance);
  }

  @Override
  public void patchInstance(InstanceKey key, boolean ephemeralKind, InstancePatch patch) {
    validator.instanceKey(key);
    validator.patch(patch);
    Instance current = existing(key, ephemeralKind);
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
  public void createService(ServiceInfo service) {
    service = withSelector(service);
    validator.serviceInfo(service);
    if (index.service(service.key()).isPresent()) {
      throw serviceExists(service.key());
    }
    cp.write(
        NamingOperation.newBuilder().setCreateService(Records.toRecord(service)).build(),
        "creating service " + service.key().groupedName());
  }

  @Override
  public void updateService(ServiceInfo service) {
    service = withSelector(service);
    validator.serviceInfo(service);
    existingService(service.key());
    cp.write(
        NamingOperation.newBuilder().setPutService(Records.toRecord(service)).build(),
        "updating service " + service.key().groupedName());
  }

  @Override
  public void deleteService(ServiceKey service) {
    validator.serviceKey(service);
    ServiceSnapshot snapshot = existingService(service);
    if (snapshot.hasInstances()) {
      throw new NamingException(
          NamingException.Kind.CONFLICT,
          "Service " + service.groupedName() + " is not empty, can't be delete. Please unregister"
              + " instance first");
    }
    cp.write(
        NamingOperation.newBuilder().setRemoveService(Records.toProto(service)).build(),
        "deleting service " + service.groupedName());
  }

  @Override
  public ServiceInfo getService(ServiceKey service) {
    validator.serviceKey(service);
    return existingService(service).info();
  }

  @Override
  public List<Instance> allInstances(ServiceKey service) {
    validator.serviceKey(service);
    return index.snapshot(service).instances();
  }

  @Override
  public ServicePage listServices(String namespaceId, String group, int pageNo, int pageSize) {
    validator.namespaceId(namespaceId);
    validator.group(group);
    if (pageNo < 1 || pageSize < 1) {
      throw NamingException.invalid(
          "Param 'pageNo' and 'pageSize' are illegal: both must be at least 1 (were " + pageNo
              + " and " + pageSize + ").");
    }
    List<String> names =
        index.services(namespaceId).stream()
            .map(ServiceSnapshot::key)
            .filter(k -> k.group().equals(group))
            .map(ServiceKey::name)
            .sorted()
            .toList();
    long start = (long) (pageNo - 1) * pageSize;
    if (start >= names.size()) {
      return new ServicePage(names.size(), List.of());
    }
    int end = (int) Math.min(names.size(), start + pageSize);
    return new ServicePage(names.size(), names.subList((int) start, end));
  }

  @Override
  public List<Namespace> listNamespaces() {
    List<Namespace> result = new ArrayList<>();
    result.add(Namespace.PUBLIC);
    index.namespaces().stream()
        .filter(ns -> !Namespace.PUBLIC.id().equals(ns.id()))
        .sorted(Comparator.comparing(Namespace::id))
        .forEach(result::add);
    return result;
  }

  @Override
  public void createNamespace(Namespace namespace) {
    namespace = withDescription(namespace);
    validator.namespace(namespace);
    if (Namespace.PUBLIC.id().equals(namespace.id()) || index.namespace(namespace.id()).isPresent()) {
      throw new NamingException(
          NamingException.Kind.CONFLICT, "namespace " + namespace.id() + " already exists");
    }
    cp.write(
        NamingOperation.newBuilder().setCreateNamespace(Records.toRecord(namespace)).build(),
        "creating namespace " + namespace.id());
  }

  @Override
  public void updateNamespace(Namespace namespace) {
    namespace = withDescription(namespace);
    validator.namespace(namespace);
    if (Namespace.PUBLIC.id().equals(namespace.id())) {
      throw NamingException.invalid("namespace public is built in and cannot be changed");
    }
    if (index.namespace(namespace.id()).isEmpty()) {
      throw NamingException.notFound("namespace " + namespace.id() + " not found");
    }
    cp.write(
        NamingOperation.newBuilder().setPutNamespace(Records.toRecord(namespace)).build(),
        "updating namespace " + namespace.id());
  }

  @Override
  public void deleteNamespace(String namespaceId) {
    validator.namespaceId(namespaceId);
    if (Namespace.PUBLIC.id().equals(namespaceId)) {
      throw NamingException.invalid("namespace public is built in and cannot be deleted");
    }
    cp.write(
        NamingOperation.newBuilder().setRemoveNamespace(namespaceId).build(),
        "deleting namespace " + namespaceId);
  }

  @Override
  public void updateCluster(ClusterInfo cluster) {
    validator.cluster(cluster);
    existingService(cluster.service());
    cp.write(
        NamingOperation.newBuilder().setPutCluster(Records.toRecord(cluster)).build(),
        "updating cluster " + cluster.name() + " of service " + cluster.service().groupedName());
  }

  @Override
  public ClusterInfo getCluster(ServiceKey service, String clusterName) {
    validator.serviceKey(service);
    validator.clusterName(clusterName);
    return existingService(service).cluster(clusterName);
  }

  // The APIs leave optional fields out; store Nacos' defaults rather than nulls.
  private static ServiceInfo withSelector(ServiceInfo s) {
    return s.selector() == null || s.selector().isBlank()
        ? new ServiceInfo(s.key(), s.protectThreshold(), s.metadata(), ServiceInfo.NO_SELECTOR)
        : s;
  }

  private static Namespace withDescription(Namespace ns) {
    return ns.description() == null ? new Namespace(ns.id(), ns.name(), "") : ns;
  }

  private Instance existing(InstanceKey key, boolean ephemeralKind) {
    return index
        .instance(key, ephemeralKind)
        .orElseThrow(() -> instanceNotFound(key, ephemeralKind ? "ephemeral " : "persistent "));
  }

  private ServiceSnapshot existingService(ServiceKey key) {
    return index
        .service(key)
        .orElseThrow(
            () ->
                NamingException.notFound(
                    "service " + key.groupedName() + " not found in namespace " + key.namespaceId()));
  }

  private static NamingException instanceNotFound(InstanceKey key, String kind) {
    return NamingException.notFound(
        "instance not exist: " + kind + "instance " + key.ip() + ":" + key.port() + " in cluster "
            + key.cluster() + " of service " + key.service().groupedName() + " (namespace "
            + key.service().namespaceId() + ")");
  }

  private static NamingException serviceExists(ServiceKey key) {
    return new NamingException(
        NamingException.Kind.CONFLICT,
        "specified service " + key.groupedName() + " already exists in namespace "
            + key.namespaceId() + "!");
  }
}
