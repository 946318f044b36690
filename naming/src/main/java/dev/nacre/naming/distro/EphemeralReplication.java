package dev.nacre.naming.distro;

import dev.nacre.consensus.distro.DistroHandler;
import dev.nacre.consensus.distro.DistroReplicator;
import dev.nacre.naming.ephemeral.EphemeralRecord;
import dev.nacre.naming.ephemeral.EphemeralStore;
import dev.nacre.naming.health.PeriodicTask;
import dev.nacre.naming.health.ProbeResultSink;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.Objects;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replication of this member's ephemeral instances between cluster members, over a
 * {@link DistroReplicator}: instances this member owns are published as they change, and peers'
 * instances are held in the same {@link EphemeralStore} as replicas (listed like any instance,
 * never health-checked here).
 *
 * <p>Optional: a standalone node runs its store without it. Create it before the store takes
 * writes and before the replicator starts:
 *
 * <pre>{@code
 * EphemeralReplication replication = EphemeralReplication.create(store,
 *     handler -> new DistroReplicator(selfId, members, distroConfig, transport, handler));
 * DistroReplicator replicator = replication.replicator();
 * // memberDown(...) for members already known DOWN, then:
 * replicator.start();
 * resources.push(replication.startReconciling(scheduler, Duration.ofMinutes(1)));
 * }</pre>
 *
 * <p>The same replicator carries the probed health of persistent instances (soft state, never in
 * the Raft log): give {@link #persistentHealth()} to the node's
 * {@link dev.nacre.naming.health.PersistentHealthProber} so that what the responsible member
 * probes reaches every member.
 *
 * <p>Ownership moves with writes: a beat or registration here for a replica makes this member the
 * owner (see {@link EphemeralStore#beat}); a peer's newer record of an owned instance makes it a
 * replica. Which member should take beats for a service: {@link ServiceRouting}.
 *
 * <p>Thread-safe. Closing stops publishing and closes the replicator.
 */
public final class EphemeralReplication implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(EphemeralReplication.class);
  private static final Duration RECONCILE_TIMEOUT = Duration.ofSeconds(3);

  private final EphemeralStore store;
  private final DistroReplicator replicator;
  private final OwnedInstancePublisher publisher;
  private final ReplicaReconciler reconciler;
  private final PersistentHealthReplication health;

  private EphemeralReplication(EphemeralStore store, DistroReplicator replicator,
      PersistentHealthReplication health) {
    this.store = store;
    this.replicator = replicator;
    this.health = health;
    this.publisher = new OwnedInstancePublisher(store.localNodeId(), replicator);
    this.reconciler = new ReplicaReconciler(store, replicator, RECONCILE_TIMEOUT);
  }

  /**
   * Connects {@code store} to the replicator that {@code replicatorFactory} builds around the
   * handler it is given (the replicator needs the handler at construction, and this bridge needs
   * the replicator). Instances the store already owns are published once.
   *
   * @throws IllegalArgumentException when the replicator's member id is not the store's node id
   *     (records would then be attributed to the wrong owner)
   */
  public static EphemeralReplication create(
      EphemeralStore store, Function<DistroHandler, DistroReplicator> replicatorFactory) {
    Objects.requireNonNull(store, "store");
    PersistentHealthReplication health =
        new PersistentHealthReplication(store.localNodeId(), store.index(), store.clock());
    DistroReplicator replicator = Objects.requireNonNull(
        replicatorFactory.apply(new ReplicaApplier(store, health)), "replicatorFactory returned null");
    if (!replicator.selfId().equals(store.localNodeId())) {
      replicator.close();
      throw new IllegalArgumentException("the Distro replicator runs as member '"
          + replicator.selfId() + "' but the ephemeral store as '" + store.localNodeId()
          + "'; give both the node's member address");
    }
    health.attach(replicator);
    EphemeralReplication replication = new EphemeralReplication(store, replicator, health);
    store.index().addListener(health);
    store.addListener(replication.publisher);
    int published = 0;
    for (EphemeralRecord r : store.records()) {
      if (r.ownerNodeId().equals(store.localNodeId())) {
        replication.publisher.onLocalChange(r.key(), java.util.Optional.of(r));
        published++;
      }
    }
    log.info("[{}] ephemeral replication attached ({} owned instances published)",
        store.localNodeId(), published);
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

  /**
   * Compares the store with the replicator's records once and repairs ownership differences that
   * were also seen the previous time (a race between a local write and a peer's record can leave
   * an instance that no member checks). That race is repaired as it happens (the replicator reports
   * each own write it ranks); this full comparison is a safety net. Run it now and then:
   * {@link #startReconciling}.
   *
   * @return how many instances were repaired
   * @throws IllegalStateException when the replicator is closed or does not answer within 3 s
   */
  public synchronized int reconcileOnce() {
    return reconciler.reconcileOnce();
  }

  /**
   * Runs {@link #reconcileOnce()} every {@code period} on {@code scheduler} until the returned task
   * is closed. Each run copies every record: a minute is a fair period for a safety net.
   */
  public PeriodicTask startReconciling(ScheduledExecutorService scheduler, Duration period) {
    return PeriodicTask.start(scheduler, period, "ephemeral-reconcile-" + store.localNodeId(),
        this::reconcileOnce);
  }

  @Override
  public void close() {
    store.removeListener(publisher);
    store.index().removeListener(health);
    replicator.close();
  }
}
