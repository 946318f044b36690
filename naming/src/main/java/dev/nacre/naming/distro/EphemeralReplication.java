package dev.nacre.naming.distro;

import dev.nacre.consensus.distro.DistroHandler;
import dev.nacre.consensus.distro.DistroReplicator;
import dev.nacre.consensus.distro.RecordHome;
import dev.nacre.naming.ephemeral.EphemeralStore;
import dev.nacre.naming.health.ProbeResultSink;
import java.util.Objects;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replication of this member's ephemeral instances between cluster members, over a
 * {@link DistroReplicator}. The {@link EphemeralStore} is each instance's one home: the replicator
 * reads this member's records from it as it sends them, and stores peers' records in it as
 * replicas (listed like any instance, never health-checked here), through {@link EphemeralHome}.
 *
 * <p>Optional: a standalone node runs its store without it. Create it before the store takes
 * writes and before the replicator starts:
 *
 * <pre>{@code
 * EphemeralReplication replication = EphemeralReplication.create(store, (handler, home) ->
 *     new DistroReplicator(selfId, members, distroConfig, transport, handler, home, clock));
 * DistroReplicator replicator = replication.replicator();
 * // memberDown(...) for members already known DOWN, then:
 * replicator.start();
 * }</pre>
 *
 * <p>The same replicator carries the probed health of persistent instances (soft state, never in
 * the Raft log): give {@link #persistentHealth()} to the node's
 * {@link dev.nacre.naming.health.PersistentHealthProber} so that what the responsible member
 * probes reaches every member.
 *
 * <p>Ownership moves with writes: a beat or registration here for a replica makes this member the
 * owner (see {@link EphemeralStore#beat}); a peer's newer record of an owned instance makes it a
 * replica. Both are ranked under the store's lock of the key, so there is nothing to reconcile.
 * Which member should take beats for a service: {@link ServiceRouting}.
 *
 * <p>Thread-safe. Closing closes the replicator.
 */
public final class EphemeralReplication implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(EphemeralReplication.class);

  private final EphemeralStore store;
  private final DistroReplicator replicator;
  private final PersistentHealthReplication health;

  private EphemeralReplication(EphemeralStore store, DistroReplicator replicator,
      PersistentHealthReplication health) {
    this.store = store;
    this.replicator = replicator;
    this.health = health;
  }

  /**
   * Connects {@code store} to the replicator that {@code replicatorFactory} builds around the
   * handler and the home it is given (the replicator needs both at construction, and the store
   * needs the replicator's {@link dev.nacre.consensus.distro.OwnWrites}). Instances the store
   * already owns are replicated once.
   *
   * @throws IllegalArgumentException when the replicator's member id is not the store's node id
   *     (records would then be attributed to the wrong owner)
   */
  public static EphemeralReplication create(EphemeralStore store,
      BiFunction<DistroHandler, RecordHome, DistroReplicator> replicatorFactory) {
    Objects.requireNonNull(store, "store");
    PersistentHealthReplication health =
        new PersistentHealthReplication(store.localNodeId(), store.index(), store.clock());
    ReplicaApplier applier = new ReplicaApplier(store.localNodeId(), health, store::count);
    DistroReplicator replicator = Objects.requireNonNull(
        replicatorFactory.apply(applier, new EphemeralHome(store)), "replicatorFactory returned null");
    if (!replicator.selfId().equals(store.localNodeId())) {
      replicator.close();
      throw new IllegalArgumentException("the Distro replicator runs as member '"
          + replicator.selfId() + "' but the ephemeral store as '" + store.localNodeId()
          + "'; give both the node's member address");
    }
    health.attach(replicator);
    EphemeralReplication replication = new EphemeralReplication(store, replicator, health);
    store.index().addListener(health);
    store.replicateThrough(replicator.ownWrites(), DistroKeys::instanceKey);
    log.info("[{}] ephemeral replication attached ({} owned instances)", store.localNodeId(),
        store.countOwned());
    return replication;
  }

  /**
   * Where the persistent-instance prober puts its results in a cluster: the local index, and a
   * health record replicated to every member:
   * {@code new PersistentHealthProber(index, config, isResponsible, replication.persistentHealth())}.
   */
  public ProbeResultSink persistentHealth() {
    return health;
  }

  /** The replicator, for the node: start, membership events, inbound peer calls, readiness. */
  public DistroReplicator replicator() {
    return replicator;
  }

  @Override
  public void close() {
    store.index().removeListener(health);
    replicator.close();
  }
}
