package dev.nacre.naming.distro;

import dev.nacre.consensus.distro.DistroConfig;
import dev.nacre.consensus.distro.DistroReplicator;
import dev.nacre.consensus.raft.ConsensusUnavailableException;
import dev.nacre.consensus.raft.RaftStatus;
import dev.nacre.consensus.raft.ReplicatedLog;
import dev.nacre.naming.NamingConfig;
import dev.nacre.naming.ephemeral.EphemeralRecord;
import dev.nacre.naming.ephemeral.EphemeralStore;
import dev.nacre.naming.health.HeartbeatChecker;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.operations.RegistryOperations;
import dev.nacre.naming.registry.RegistryIndex;
import dev.nacre.naming.support.MutableClock;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * One member's naming side as the node wires it in a cluster: its own index, store, operations,
 * heartbeat checker (driven by hand with its own clock) and a real Distro replicator.
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

  ReplicatedMember(String id, Collection<String> members, DistroConfig distro, InMemoryDistroNetwork network) {
    this.id = id;
    this.store = new EphemeralStore(id, clock, index);
    this.ops = new RegistryOperations(config, clock, new NoCpLog(), index, store);
    this.checker = new HeartbeatChecker(store, config, clock);
    this.replication = EphemeralReplication.create(store,
        handler -> new DistroReplicator(id, members, distro, network.transportOf(id), handler));
    network.attach(replication.replicator());
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
        .sorted().collect(Collectors.joining(", ", "[", "]"));
  }

  @Override
  public void close() {
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
