package dev.nacre.naming;

import dev.nacre.consensus.raft.ReplicatedLog;
import dev.nacre.naming.ephemeral.EphemeralStore;
import dev.nacre.naming.health.HeartbeatChecker;
import dev.nacre.naming.health.PersistentHealthProber;
import dev.nacre.naming.health.ProbeResultSink;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.operations.RegistryOperations;
import dev.nacre.naming.override.OverrideCleaner;
import dev.nacre.naming.persistent.NamingStateMachine;
import dev.nacre.naming.push.PushConfig;
import dev.nacre.naming.push.PushService;
import dev.nacre.naming.registry.RegistryIndex;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The naming registry of one node, built in the order its parts need each other:
 * {@link #open} loads the persistent state (the state machine a Raft member needs first);
 * {@link #attach} adds, on the replicated log, the ephemeral store, the operations every API calls
 * and the push to subscribers; {@link #startChecks} starts the periodic work (heartbeats, override
 * clean-up, persistent health probes). A node starts these and needs no part's constructor.
 * {@link #close} stops push and the storage; the checks stop through the handle they returned.
 */
public final class Naming implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Naming.class);

  private final String nodeId;
  private final NamingConfig config;
  private final PushConfig pushConfig;
  private final Clock clock;
  private final RegistryIndex index;
  private final NamingStateMachine stateMachine;
  private final Deque<AutoCloseable> resources = new ArrayDeque<>();
  private ReplicatedLog replicatedLog;
  private EphemeralStore ephemeral;
  private RegistryOperations operations;
  private PushService push;

  private Naming(String nodeId, NamingConfig config, PushConfig pushConfig, Clock clock, RegistryIndex index,
      NamingStateMachine stateMachine) {
    this.nodeId = nodeId;
    this.config = config;
    this.pushConfig = pushConfig;
    this.clock = clock;
    this.index = index;
    this.stateMachine = stateMachine;
    resources.push(stateMachine);
  }

  /**
   * Opens the persistent naming state in {@code dir} (RocksDB) for a new index, without reading it
   * yet: see {@link #loadPersistentState}.
   */
  public static Naming open(String nodeId, NamingConfig config, PushConfig pushConfig, Path dir, Clock clock) {
    RegistryIndex index = new RegistryIndex();
    return new Naming(nodeId, config, pushConfig, clock, index, NamingStateMachine.openUnread(dir, index));
  }

  /**
   * Reads the persistent state into the index (seconds for a large registry); before the Raft
   * member starts, since it applies on top of that state, and before anything is served.
   */
  public void loadPersistentState() {
    stateMachine.load();
  }

  /** What the Raft member applies committed entries to. */
  public NamingStateMachine stateMachine() {
    return stateMachine;
  }

  /**
   * Builds the registry on {@code replicatedLog}: ephemeral store, operations and push, which
   * follows every change of the index.
   */
  public void attach(ReplicatedLog replicatedLog) {
    if (operations != null) {
      throw new IllegalStateException("naming of " + nodeId + " is attached already");
    }
    this.replicatedLog = Objects.requireNonNull(replicatedLog, "replicatedLog");
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

  public RegistryIndex index() {
    return index;
  }

  public EphemeralStore ephemeral() {
    requireAttached();
    return ephemeral;
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
