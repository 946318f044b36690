package dev.nacre.naming;

import dev.nacre.consensus.distro.DistroHandler;
import dev.nacre.consensus.distro.DistroReplicator;
import dev.nacre.consensus.distro.RecordHome;
import dev.nacre.consensus.raft.ReplicatedLog;
import dev.nacre.consensus.state.DomainLog;
import dev.nacre.consensus.state.StateDomain;
import dev.nacre.naming.api.NamingConfig;
import dev.nacre.naming.distro.EphemeralReplication;
import dev.nacre.naming.ephemeral.EphemeralRecord;
import dev.nacre.naming.ephemeral.EphemeralStore;
import dev.nacre.naming.health.HeartbeatChecker;
import dev.nacre.naming.health.PersistentHealthProber;
import dev.nacre.naming.health.ProbeResultSink;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.operations.OverrideCleaner;
import dev.nacre.naming.operations.RegistryOperations;
import dev.nacre.naming.persistent.AuthRecords;
import dev.nacre.naming.persistent.PersistentNaming;
import dev.nacre.naming.push.PushConfig;
import dev.nacre.naming.push.PushService;
import dev.nacre.naming.registry.RegistryIndex;
import dev.nacre.naming.registry.ServiceSnapshot;
import dev.nacre.naming.writes.EphemeralWrites;
import dev.nacre.naming.writes.InstanceWriteRouter;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The naming registry of one node, built in the order its parts need each other:
 * {@link #open} makes its part of the replicated state ({@link #domain}, which the node's state
 * machine loads before its Raft member starts); {@link #attach} adds, on the replicated log, the ephemeral store, the operations every API calls
 * and the push to subscribers; {@link #startChecks} starts the periodic work (heartbeats, override
 * clean-up, persistent health probes). A node starts these and needs no part's constructor.
 * {@link #close} stops push; the checks stop through the handle they returned.
 */
public final class Naming implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Naming.class);

  private final String nodeId;
  private final NamingConfig config;
  private final PushConfig pushConfig;
  private final Clock clock;
  private final RegistryIndex index;
  private final PersistentNaming persistent;
  private final Deque<AutoCloseable> resources = new ArrayDeque<>();
  private ReplicatedLog replicatedLog;
  private EphemeralStore ephemeral;
  private RegistryOperations operations;
  private PushService push;

  private Naming(String nodeId, NamingConfig config, PushConfig pushConfig, Clock clock, RegistryIndex index,
      PersistentNaming persistent) {
    this.nodeId = nodeId;
    this.config = config;
    this.pushConfig = pushConfig;
    this.clock = clock;
    this.index = index;
    this.persistent = persistent;
  }

  /** A registry whose persistent part is loaded and applied by the node's state machine. */
  public static Naming open(String nodeId, NamingConfig config, PushConfig pushConfig, Clock clock) {
    RegistryIndex index = new RegistryIndex();
    return new Naming(nodeId, config, pushConfig, clock, index, new PersistentNaming(index));
  }

  /** Naming's part of the replicated state: its operations, column families and loading. */
  public StateDomain domain() {
    return persistent;
  }

  /** The users, roles and permissions of client authentication, as the log last applied them. */
  public AuthRecords authRecords() {
    return persistent.authRecords();
  }

  /**
   * Builds the registry on the node's replicated log (naming's operations marked as its domain's):
   * ephemeral store, operations and push, which follows every change of the index.
   */
  public void attach(ReplicatedLog sharedLog) {
    if (operations != null) {
      throw new IllegalStateException("naming of " + nodeId + " is attached already");
    }
    this.replicatedLog = new DomainLog(persistent, Objects.requireNonNull(sharedLog, "sharedLog"));
    ephemeral = new EphemeralStore(nodeId, clock, index);
    operations = new RegistryOperations(config, clock, replicatedLog, index, ephemeral);
    RegistryOperations views = operations;
    push = new PushService(nodeId, pushConfig, clock,
        (service, clusters) -> views.listInstances(service, clusters, false, false));
    resources.push(push);
    index.addListener(push);
    PushService listener = push;
    resources.push(() -> index.removeListener(listener));
  }

  /**
   * Starts heartbeat checks of the ephemeral instances this node owns, the clean-up of stale
   * operator overrides, and health probes of the persistent instances {@code probesHere} (results
   * to {@code probeResults}, or to this node's index alone). Closing the handle stops them.
   */
  public AutoCloseable startChecks(ScheduledExecutorService scheduler, Predicate<ServiceKey> probesHere,
      Optional<ProbeResultSink> probeResults) {
    requireAttached();
    Deque<AutoCloseable> checks = new ArrayDeque<>();
    checks.push(new HeartbeatChecker(ephemeral, config, clock).start(scheduler));
    checks.push(new OverrideCleaner(index, replicatedLog, config.overrideRetention(), clock)
        .start(scheduler, config.heartbeatScanPeriod()));
    PersistentHealthProber prober = probeResults
        .map(sink -> new PersistentHealthProber(index, config, probesHere, sink))
        .orElseGet(() -> new PersistentHealthProber(index, config, probesHere));
    checks.push(prober);
    checks.push(prober.start(scheduler));
    return () -> closeAll(checks);
  }

  /**
   * Replicates the ephemeral records this member owns to its peers, and takes theirs, through the
   * Distro replicator that {@code replicator} builds on naming's handler and record home.
   */
  public EphemeralReplication replicateEphemeral(
      BiFunction<DistroHandler, RecordHome, DistroReplicator> replicator) {
    requireAttached();
    return EphemeralReplication.create(ephemeral, replicator);
  }

  /** Applies ephemeral writes and beats here, this member owning them. */
  public EphemeralWrites localWrites() {
    return EphemeralWrites.local(operations());
  }

  /**
   * Where every instance write of the client ports goes ({@link InstanceWriteRouter}), the Open
   * API's ephemeral writes to {@code owners}: {@link #localWrites} alone, or the peer transport.
   */
  public InstanceWriteRouter writes(EphemeralWrites owners) {
    return new InstanceWriteRouter(operations(), owners);
  }

  /**
   * Instances this node answers for: the ephemeral ones it owns, and the persistent ones of the
   * services {@code probesHere} (whose health it checks).
   */
  public long responsibleInstances(Predicate<ServiceKey> probesHere) {
    requireAttached();
    return ephemeral.countOwned() + index.allServices().stream()
        .filter(s -> probesHere.test(s.key())).mapToLong(s -> s.persistentInstances().size()).sum();
  }

  /** The member that owns an ephemeral instance; empty for persistent or unknown instances. */
  public Optional<String> ownerOf(InstanceKey key) {
    requireAttached();
    return ephemeral.get(key).map(EphemeralRecord::ownerNodeId);
  }

  /** The services of a namespace in every group. */
  public List<ServiceKey> services(String namespace) {
    return index.services(namespace).stream().map(ServiceSnapshot::key).toList();
  }

  /** What the HTTP and gRPC APIs call. */
  public RegistryOperations operations() {
    requireAttached();
    return operations;
  }

  public PushService push() {
    requireAttached();
    return push;
  }

  private void requireAttached() {
    if (operations == null) {
      throw new IllegalStateException("naming of " + nodeId + " is not attached to a replicated log yet");
    }
  }

  @Override
  public void close() {
    closeAll(resources);
  }

  private void closeAll(Deque<AutoCloseable> parts) {
    while (!parts.isEmpty()) {
      AutoCloseable part = parts.pop();
      try {
        part.close();
      } catch (Exception e) {
        log.warn("[{}] while stopping {}: {}", nodeId, part, e.toString());
      }
    }
  }
}
