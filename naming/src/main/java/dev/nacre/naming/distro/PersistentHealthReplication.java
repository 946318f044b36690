package dev.nacre.naming.distro;

import dev.nacre.consensus.distro.DistroReplicator;
import dev.nacre.naming.health.ProbeResultSink;
import dev.nacre.naming.model.HealthCheckType;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.registry.RegistryIndex;
import dev.nacre.naming.registry.ServiceChangeListener;
import dev.nacre.naming.registry.ServiceSnapshot;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Persistent instances' probed health as soft state replicated by Distro, one record per instance
 * under {@link DistroKeys#healthKey}: the member that probes an instance publishes what it found,
 * every member sets it in its index. Health never goes through the Raft log and never deletes an
 * instance.
 *
 * <p>The rules:
 * <ul>
 *   <li>Publish: a probe result is published when it differs from the health record this member
 *       last published for the instance, when this member does not own that record (first probe
 *       after responsibility moved here: the write re-owns the key), or when it changed the local
 *       index (a Raft re-registration reset the health everywhere).
 *   <li>Known health: this member keeps the newest health record of each instance, its own or a
 *       peer's, and sets it in the index whenever the instance's service changes. So a record that
 *       arrives before the instance (Raft apply lagging here) takes effect when the instance
 *       appears, and a Raft update that rewrites the instance keeps its probed health.
 *   <li>Deregistration: the owner of a record deletes it when the instance leaves its index; a
 *       peer's tombstone forgets the record here without touching the index (the instance goes,
 *       or went, through Raft).
 *   <li>A record dropped without a replacement (its owner stayed DOWN for the grace period, or
 *       verify found the owner no longer holds it) is forgotten, but the index keeps the last
 *       known health: flipping it would be a guess, and the new responsible member's first probe
 *       publishes the truth.
 *   <li>Instances of a cluster whose check type is {@link HealthCheckType#NONE} are not probed;
 *       their health is what registrations set, and records about them are not applied.
 * </ul>
 *
 * <p>Thread-safe: probe threads, the Distro thread and index writers (the Raft apply thread) call
 * in concurrently. Each writer records the health here before it sets the index, and every index
 * change re-applies the known health, so the index ends with the newest known health.
 */
final class PersistentHealthReplication implements ProbeResultSink, ServiceChangeListener {
  private static final Logger log = LoggerFactory.getLogger(PersistentHealthReplication.class);

  private record Known(boolean healthy, String owner) {}

  private final String selfId;
  private final RegistryIndex index;
  private final Clock clock;
  private final ConcurrentHashMap<ServiceKey, ConcurrentHashMap<InstanceKey, Known>> known =
      new ConcurrentHashMap<>();
  private volatile DistroReplicator replicator;

  PersistentHealthReplication(String selfId, RegistryIndex index, Clock clock) {
    this.selfId = selfId;
    this.index = index;
    this.clock = clock;
  }

  /** Sets the replicator, once, before it starts and before any probe result arrives. */
  void attach(DistroReplicator replicator) {
    this.replicator = replicator;
  }

  // ---- this member's probes ----

  @Override
  public boolean probed(InstanceKey key, boolean healthy) {
    if (index.instance(key, false).isEmpty()) {
      return false;
    }
    Known mine = new Known(healthy, selfId);
    Known before = put(key, mine);
    boolean changed = index.setHealth(key, false, healthy);
    if (changed || !mine.equals(before)) {
      replicator.publish(DistroKeys.healthKey(key),
          PersistentHealthCodec.encode(key, healthy, clock.millis()));
      if (before != null && !before.owner().equals(selfId)) {
        log.debug("[{}] took over the health record of {} from {}", selfId, key.instanceId(), before.owner());
      }
    }
    if (index.instance(key, false).isEmpty()) {
      // Deregistered while this probe ran: the index listener may have looked before the
      // publish above was queued, so delete again after it.
      removeIf(key, k -> k.owner().equals(selfId));
      replicator.delete(DistroKeys.healthKey(key));
    }
    return changed;
  }

  // ---- index changes (any thread that writes the index) ----

  @Override
  public void onServiceChanged(ServiceKey service) {
    Map<InstanceKey, Known> entries = known.get(service);
    if (entries == null || entries.isEmpty()) {
      return;
    }
    ServiceSnapshot snapshot = index.snapshot(service);
    for (Map.Entry<InstanceKey, Known> e : entries.entrySet()) {
      InstanceKey key = e.getKey();
      Known k = e.getValue();
      boolean mine = k.owner().equals(selfId);
      Optional<Instance> instance = snapshot.instance(key, false);
      if (instance.isEmpty() || notProbed(snapshot, key)) {
        // Gone (or no longer probed): the owner deletes its record. A peer's record of an
        // instance that is not here may be ahead of this member's Raft apply: kept for later.
        if (mine && removeIf(key, k::equals)) {
          replicator.delete(DistroKeys.healthKey(key));
          log.debug("[{}] deleted the health record of {}: {}", selfId, key.instanceId(),
              instance.isEmpty() ? "deregistered" : "no longer probed");
        }
        continue;
      }
      if (instance.get().healthy() != k.healthy()) {
        index.setHealth(key, false, k.healthy());
      }
    }
  }

  // ---- peers' records (the Distro thread, through ReplicaApplier) ----

  /**
   * A peer's live health record replaced what was held for its key.
   *
   * @throws ReplicatedValueException when the key or value cannot be read
   */
  void applyPeer(String distroKey, String owner, byte[] value) {
    PersistentHealthCodec.ProbedHealth h = PersistentHealthCodec.decode(distroKey, value);
    put(h.key(), new Known(h.healthy(), owner));
    ServiceSnapshot snapshot = index.snapshot(h.key().service());
    if (snapshot.instance(h.key(), false).isEmpty()) {
      log.debug("[{}] health of {} from {} kept until the instance is here", selfId,
          h.key().instanceId(), owner);
    } else if (!notProbed(snapshot, h.key()) && index.setHealth(h.key(), false, h.healthy())) {
      log.debug("[{}] persistent instance {} is {} (probed by {})", selfId, h.key().instanceId(),
          h.healthy() ? "healthy" : "unhealthy", owner);
    }
  }

  /** A peer deleted the record (the instance was deregistered): forget it, keep the index. */
  void deletedByPeer(String distroKey) {
    InstanceKey key = DistroKeys.parseHealthKey(distroKey);
    removeIf(key, k -> true);
  }

  /**
   * The replicator dropped {@code owner}'s record without a replacement (grace period or verify):
   * forget it if it is still that owner's, and keep the health in the index as it is.
   */
  void droppedByReplication(String distroKey, String owner) {
    InstanceKey key = DistroKeys.parseHealthKey(distroKey);
    removeIf(key, k -> k.owner().equals(owner));
  }

  /** The health this member knows for {@code key} and whose record it is, e.g. "false@b". */
  Optional<String> describe(InstanceKey key) {
    Map<InstanceKey, Known> entries = known.get(key.service());
    Known k = entries == null ? null : entries.get(key);
    return Optional.ofNullable(k).map(x -> x.healthy() + "@" + x.owner());
  }

  int size() {
    return known.values().stream().mapToInt(Map::size).sum();
  }

  private static boolean notProbed(ServiceSnapshot snapshot, InstanceKey key) {
    return snapshot.cluster(key.cluster()).checkType() == HealthCheckType.NONE;
  }

  private Known put(InstanceKey key, Known value) {
    Known[] before = {null};
    known.compute(key.service(), (s, m) -> {
      ConcurrentHashMap<InstanceKey, Known> entries = m == null ? new ConcurrentHashMap<>() : m;
      before[0] = entries.put(key, value);
      return entries;
    });
    return before[0];
  }

  private boolean removeIf(InstanceKey key, Predicate<Known> which) {
    boolean[] removed = {false};
    known.computeIfPresent(key.service(), (s, m) -> {
      Known k = m.get(key);
      if (k != null && which.test(k)) {
        m.remove(key);
        removed[0] = true;
      }
      return m.isEmpty() ? null : m;
    });
    return removed[0];
  }
}
