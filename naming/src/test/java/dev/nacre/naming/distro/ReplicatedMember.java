package dev.nacre.naming.distro;

import dev.nacre.consensus.distro.DistroConfig;
import dev.nacre.consensus.distro.DistroReplicator;
import dev.nacre.consensus.raft.ConsensusUnavailableException;
import dev.nacre.consensus.raft.RaftStatus;
import dev.nacre.consensus.raft.ReplicatedLog;
import dev.nacre.naming.api.NamingConfig;
import dev.nacre.naming.ephemeral.EphemeralRecord;
import dev.nacre.naming.ephemeral.EphemeralStore;
import dev.nacre.naming.health.HealthProbe;
import dev.nacre.naming.health.HeartbeatChecker;
import dev.nacre.naming.health.PersistentHealthProber;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.operations.RegistryOperations;
import dev.nacre.naming.registry.RegistryIndex;
import dev.nacre.naming.support.MutableClock;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One member's naming side as the node wires it in a cluster: its own index, store, operations,
 * heartbeat checker (driven by hand with its own clock), persistent-instance prober (driven by
 * hand, with scripted probe answers) and a real Distro replicator.
 */
final class ReplicatedMember implements AutoCloseable {
  final String id;
  final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  final NamingConfig config = NamingConfig.defaults();
  final RegistryIndex index = new RegistryIndex();
  final EphemeralStore store;
  final RegistryOperations ops;
  final HeartbeatChecker checker;
  final EphemeralReplication replication;
  /** What this member's probes answer, by port; an unlisted port answers healthy. */
  final Map<Integer, Boolean> probeAnswers = new ConcurrentHashMap<>();
  /** Whether this member is responsible for (probes) every service; none is at first. */
  volatile boolean responsible;
  final PersistentHealthProber prober;

  ReplicatedMember(String id, Collection<String> members, DistroConfig distro, InMemoryDistroNetwork network) {
    this.id = id;
    this.store = new EphemeralStore(id, clock, index);
    this.ops = new RegistryOperations(config, clock, new NoCpLog(), index, store);
    this.checker = new HeartbeatChecker(store, config, clock);
    this.replication = EphemeralReplication.create(store,
        (handler, home) -> new DistroReplicator(id, members, distro, network.transportOf(id), handler,
            home, System::currentTimeMillis));
    network.attach(replication.replicator());
    HealthProbe scripted = (host, port, cluster) -> probeAnswers.getOrDefault(port, true);
    this.prober = new PersistentHealthProber(index, config, service -> responsible,
        replication.persistentHealth(), scripted, scripted);
  }

  /** One probe round, waited for. */
  void probeOnce() {
    prober.probeOnce().orTimeout(10, TimeUnit.SECONDS).join();
  }

  Optional<Instance> persistent(InstanceKey key) {
    return index.instance(key, false);
  }

  /** The live health record of {@code key} this member's replicator holds, if any. */
  Optional<dev.nacre.consensus.distro.DistroRecord> healthRecord(InstanceKey key) {
    return Optional.ofNullable(replicator().liveRecords().join().get(DistroKeys.healthKey(key)));
  }

  PersistentHealthReplication health() {
    return (PersistentHealthReplication) replication.persistentHealth();
  }

  DistroReplicator replicator() {
    return replication.replicator();
  }

  Optional<Instance> instance(InstanceKey key) {
    return index.instance(key, true);
  }

  Optional<String> ownerOf(InstanceKey key) {
    return store.get(key).map(EphemeralRecord::ownerNodeId);
  }

  String describe() {
    return id + ": " + store.records().stream()
        .map(r -> r.key().instanceId() + "@" + r.ownerNodeId() + (r.instance().healthy() ? "" : "(unhealthy)"))
        .sorted().collect(Collectors.joining(", ", "[", "]"))
        + " persistent " + index.allServices().stream().flatMap(s -> s.persistentInstances().stream())
        .map(i -> i.key().instanceId() + (i.healthy() ? "" : "(unhealthy)")
            + health().describe(i.key()).map(h -> " known " + h).orElse(""))
        .sorted().collect(Collectors.joining(", ", "[", "]"))
        + " (" + health().size() + " health records known)";
  }

  @Override
  public void close() {
    prober.close();
    replication.close();
  }

  /** Ephemeral writes never use the log; any CP call here is a test bug and fails loudly. */
  private static final class NoCpLog implements ReplicatedLog {
    @Override
    public CompletableFuture<byte[]> submit(byte[] operation) {
      return CompletableFuture.failedFuture(new ConsensusUnavailableException("no CP log in this test"));
    }

    @Override
    public CompletableFuture<Void> readBarrier() {
      return CompletableFuture.failedFuture(new ConsensusUnavailableException("no CP log in this test"));
    }

    @Override
    public RaftStatus status() {
      return new RaftStatus("test", "FOLLOWER", "", 0, 0, 0);
    }

    @Override
    public void close() {}
  }
}
