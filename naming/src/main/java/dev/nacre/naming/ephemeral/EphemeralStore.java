package dev.nacre.naming.ephemeral;

import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.registry.RegistryIndex;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ephemeral (AP) instances of this node: memory only, the source of truth for the ephemeral
 * part of the {@link RegistryIndex}, which it keeps in step under the same per-key lock.
 *
 * <p>Each record is either owned by this node (registered or beaten here: this node checks its
 * heartbeats and its changes are replicated) or a replica of another member's record, put here
 * by replication ({@link #putReplica}). A beat or a registration arriving here for a replica makes
 * this node its owner (takeover); a peer's newer record for an owned instance makes it a replica
 * (the peer took it over).
 *
 * <p>Thread-safe. Every change made here (not those put by replication) is reported to the
 * {@link EphemeralChangeListener}s.
 */
public final class EphemeralStore {
  private static final Logger log = LoggerFactory.getLogger(EphemeralStore.class);

  private final String localNodeId;
  private final Clock clock;
  private final RegistryIndex index;
  private final ConcurrentHashMap<InstanceKey, EphemeralRecord> records = new ConcurrentHashMap<>();
  private final AtomicLong revisions = new AtomicLong();
  private final List<EphemeralChangeListener> listeners = new CopyOnWriteArrayList<>();
  private final ClientKeyIndex clientKeys = new ClientKeyIndex();

  public EphemeralStore(String localNodeId, Clock clock, RegistryIndex index) {
    this.localNodeId = localNodeId;
    this.clock = clock;
    this.index = index;
  }

  public String localNodeId() {
    return localNodeId;
  }

  /** The index this store keeps in step (replication applies peers' soft state to it too). */
  public RegistryIndex index() {
    return index;
  }

  public Clock clock() {
    return clock;
  }

  public void addListener(EphemeralChangeListener listener) {
    listeners.add(listener);
  }

  public void removeListener(EphemeralChangeListener listener) {
    listeners.remove(listener);
  }

  /** True when this node owns the instance (it is here and not a replica of another member's). */
  public boolean ownsLocally(InstanceKey key) {
    EphemeralRecord r = records.get(key);
    return r != null && isLocal(r);
  }

  /**
   * Registers or replaces an instance owned by this node; counts as a beat. CONFLICT (from the
   * index) when a persistent instance holds the same address, and then nothing changes.
   */
  public EphemeralRecord register(Instance instance) {
    if (!instance.ephemeral()) {
      throw new IllegalArgumentException("not an ephemeral instance: " + instance.key());
    }
    return compute(
        instance.key(),
        (key, current) -> {
          EphemeralRecord next = stamp(instance, clock.millis());
          index.putEphemeral(instance);
          if (current != null && !isLocal(current)) {
            log.info("[{}] took over instance {} from {}: registered here", localNodeId,
                key.instanceId(), current.ownerNodeId());
          }
          notifyChange(key, Optional.of(next));
          return next;
        });
  }

  /**
   * Writes the instance to the index again, unchanged here, so that the index lays the current
   * operator override over it; a no-op when the instance is absent. Listeners are not told.
   */
  public void reindex(InstanceKey key) {
    computeIfPresent(key, (k, current) -> {
      index.putEphemeral(current.instance());
      return current;
    });
  }

  public Optional<EphemeralRecord> get(InstanceKey key) {
    return Optional.ofNullable(records.get(key));
  }

  /** Instances this node owns (not replicas of a peer's), counted now. */
  public long countOwned() {
    return records.values().stream().filter(this::isLocal).count();
  }

  /** Every record, for health scans and (later) replication digests. */
  public List<EphemeralRecord> records() {
    return List.copyOf(records.values());
  }

  /** Removes an instance; removing an absent one is a no-op. */
  public void remove(InstanceKey key) {
    computeIfPresent(
        key,
        (k, current) -> {
          index.remove(k, true);
          notifyChange(k, Optional.empty());
          return null;
        });
  }

  /**
   * Refreshes the last beat; an unhealthy instance becomes healthy again. A beat for a replica
   * takes it over: the node layer sends a beat here only when this node is now responsible for
   * the service (for example its previous owner went DOWN), so this node becomes the owner.
   *
   * @return the record after the beat, empty when the instance is unknown
   */
  public Optional<EphemeralRecord> beat(InstanceKey key) {
    EphemeralRecord updated =
        computeIfPresent(
            key,
            (k, current) -> {
              long now = clock.millis();
              if (!isLocal(current)) {
                Instance alive = current.instance().withHealthy(true);
                EphemeralRecord next = stamp(alive, now);
                index.putEphemeral(alive);
                log.info("[{}] took over instance {} from {}: it beat here", localNodeId,
                    k.instanceId(), current.ownerNodeId());
                notifyChange(k, Optional.of(next));
                return next;
              }
              if (current.instance().healthy()) {
                // Only the time moved: nothing for the index or for peers.
                return new EphemeralRecord(current.instance(), current.ownerNodeId(), current.revision(), now,
                    current.clientId());
              }
              Instance revived = current.instance().withHealthy(true);
              EphemeralRecord next = stamp(revived, now, current.clientId());
              index.putEphemeral(revived);
              log.info("Instance {} beat again and is healthy", k.instanceId());
              notifyChange(k, Optional.of(next));
              return next;
            });
    return Optional.ofNullable(updated);
  }

  /**
   * Makes this node the owner of a replica, unchanged since {@code observed} was read, keeping the
   * instance as it is; its heartbeat clock starts now. Used when replication finds that this node
   * owns the record everywhere else while the store still held it as a replica.
   *
   * @return whether the record was adopted
   */
  public boolean adopt(EphemeralRecord observed) {
    boolean[] adopted = {false};
    computeIfPresent(
        observed.key(),
        (k, current) -> {
          if (isLocal(current) || !current.equals(observed)) {
            return current;
          }
          EphemeralRecord next = stamp(current.instance(), clock.millis());
          log.info("[{}] adopted instance {}: replication says this node owns it", localNodeId,
              k.instanceId());
          notifyChange(k, Optional.of(next));
          adopted[0] = true;
          return next;
        });
    return adopted[0];
  }

  /** Marks the instance unhealthy unless a beat arrived after {@code observed} was read. */
  public boolean markUnhealthy(EphemeralRecord observed) {
    boolean[] changed = {false};
    computeIfPresent(
        observed.key(),
        (k, current) -> {
          if (!isLocal(current) || current.lastBeatMillis() != observed.lastBeatMillis()
              || !current.instance().healthy()) {
            return current;
          }
          Instance sick = current.instance().withHealthy(false);
          EphemeralRecord next = new EphemeralRecord(sick, current.ownerNodeId(),
              revisions.incrementAndGet(), current.lastBeatMillis(), current.clientId());
          index.putEphemeral(sick);
          notifyChange(k, Optional.of(next));
          changed[0] = true;
          return next;
        });
    return changed[0];
  }

  /** Removes the instance unless a beat arrived after {@code observed} was read. */
  public boolean expire(EphemeralRecord observed) {
    boolean[] removed = {false};
    computeIfPresent(
        observed.key(),
        (k, current) -> {
          // Owned-by-us check: a peer may have taken the instance over since the scan read it.
          if (!isLocal(current) || current.lastBeatMillis() != observed.lastBeatMillis()) {
            return current;
          }
          index.remove(k, true);
          notifyChange(k, Optional.empty());
          removed[0] = true;
          return null;
        });
    return removed[0];
  }

  /**
   * Stores a peer's record: the instance as its owner {@code ownerNodeId} wrote it. An instance
   * this node owned becomes a replica (the peer took it over: this node stops checking and
   * replicating it). Listeners are not told: this is not a local change.
   *
   * @param revision the owner's revision of the record
   * @throws dev.nacre.naming.api.NamingException CONFLICT when a persistent instance holds the
   *     address here; nothing changes then
   */
  public EphemeralRecord putReplica(Instance instance, String ownerNodeId, long revision) {
    if (!instance.ephemeral()) {
      throw new IllegalArgumentException("not an ephemeral instance: " + instance.key());
    }
    if (ownerNodeId.equals(localNodeId)) {
      throw new IllegalArgumentException("a replica of " + instance.key().instanceId()
          + " cannot be owned by this node (" + localNodeId + ")");
    }
    return compute(
        instance.key(),
        (key, current) -> {
          index.putEphemeral(instance);
          if (current != null && isLocal(current)) {
            log.info("[{}] instance {} was taken over by {}; no longer checked here", localNodeId,
                key.instanceId(), ownerNodeId);
          }
          return new EphemeralRecord(instance, ownerNodeId, revision, clock.millis());
        });
  }

  /**
   * Removes an instance because its owner deleted it (a peer's tombstone), whoever holds it here.
   * Listeners are not told.
   *
   * @return whether an instance was removed
   */
  public boolean removeByPeer(InstanceKey key) {
    boolean[] removed = {false};
    computeIfPresent(key, (k, current) -> {
      if (isLocal(current)) {
        log.info("[{}] instance {} was deleted by a peer; no longer checked here", localNodeId,
            k.instanceId());
      }
      index.remove(k, true);
      removed[0] = true;
      return null;
    });
    return removed[0];
  }

  /**
   * Removes the replica of {@code key} if it is still owned by {@code ownerNodeId}: the owner
   * stopped holding it or stayed DOWN past its grace period. A record another member (this one
   * included) wrote since is kept. Listeners are not told.
   *
   * @return whether an instance was removed
   */
  public boolean removeReplica(InstanceKey key, String ownerNodeId) {
    boolean[] removed = {false};
    computeIfPresent(key, (k, current) -> {
      if (!current.ownerNodeId().equals(ownerNodeId) || isLocal(current)) {
        return current;
      }
      index.remove(k, true);
      removed[0] = true;
      return null;
    });
    return removed[0];
  }

  private boolean isLocal(EphemeralRecord r) {
    return r.ownerNodeId().equals(localNodeId);
  }

  private EphemeralRecord stamp(Instance instance, long lastBeat) {
    return stamp(instance, lastBeat, "");
  }

  private EphemeralRecord stamp(Instance instance, long lastBeat, String clientId) {
    return new EphemeralRecord(instance, localNodeId, revisions.incrementAndGet(), lastBeat, clientId);
  }

  // --- Instances owned by a client connection (gRPC): they live as long as the connection. ---

  /**
   * Registers or replaces an instance owned by this node and tied to the client connection
   * {@code clientId}: heartbeat timeouts do not apply to it, and {@link #removeIfClient} removes
   * it when the connection goes. A later beat-driven {@link #register} of the same key unties it.
   * CONFLICT (from the index) when a persistent instance holds the same address.
   */
  public EphemeralRecord registerForClient(Instance instance, String clientId) {
    if (!instance.ephemeral()) {
      throw new IllegalArgumentException("not an ephemeral instance: " + instance.key());
    }
    if (clientId.isEmpty()) {
      throw new IllegalArgumentException("empty client id for " + instance.key().instanceId());
    }
    return compute(
        instance.key(),
        (key, current) -> {
          EphemeralRecord next = stamp(instance, clock.millis(), clientId);
          index.putEphemeral(instance);
          if (current != null && !isLocal(current)) {
            log.info("[{}] took over instance {} from {}: client {} registered it here", localNodeId,
                key.instanceId(), current.ownerNodeId(), clientId);
          }
          notifyChange(key, Optional.of(next));
          return next;
        });
  }

  /** The instances this node holds for the client connection {@code clientId}. */
  public List<EphemeralRecord> recordsOfClient(String clientId) {
    return ownedBy(clientId, clientKeys.keysOf(clientId));
  }

  /** The instances of {@code service} this node holds for the client connection {@code clientId}. */
  public List<EphemeralRecord> recordsOfClient(String clientId, ServiceKey service) {
    return ownedBy(clientId, clientKeys.keysOf(clientId, service));
  }

  private List<EphemeralRecord> ownedBy(String clientId, List<InstanceKey> keys) {
    return keys.stream()
        .map(records::get)
        .filter(r -> r != null && r.clientId().equals(clientId) && isLocal(r))
        .toList();
  }

  /** Client connections that own at least one instance here; for metrics and tests. */
  public int connectionOwners() {
    return clientKeys.clients();
  }

  /**
   * Every change of a record goes through here (or {@link #computeIfPresent}), so that the
   * connection index moves under the same per-key lock as the record.
   */
  private EphemeralRecord compute(InstanceKey key,
      BiFunction<InstanceKey, EphemeralRecord, EphemeralRecord> change) {
    return records.compute(key, (k, current) -> {
      EphemeralRecord next = change.apply(k, current);
      if (next != current) {
        clientKeys.moved(k, current, next);
      }
      return next;
    });
  }

  private EphemeralRecord computeIfPresent(InstanceKey key,
      BiFunction<InstanceKey, EphemeralRecord, EphemeralRecord> change) {
    return compute(key, (k, current) -> current == null ? null : change.apply(k, current));
  }

  /**
   * Removes the instance if the client connection {@code clientId} still owns it here (another
   * connection, an HTTP registration or a peer may have taken it since).
   *
   * @return whether it was removed
   */
  public boolean removeIfClient(InstanceKey key, String clientId) {
    boolean[] removed = {false};
    computeIfPresent(
        key,
        (k, current) -> {
          if (!isLocal(current) || !current.clientId().equals(clientId)) {
            return current;
          }
          index.remove(k, true);
          notifyChange(k, Optional.empty());
          removed[0] = true;
          return null;
        });
    return removed[0];
  }

  private void notifyChange(InstanceKey key, Optional<EphemeralRecord> record) {
    for (EphemeralChangeListener l : listeners) {
      try {
        l.onLocalChange(key, record);
      } catch (RuntimeException e) {
        // A broken listener must not undo a registration the client was told succeeded.
        log.warn("Ephemeral change listener {} failed for {}", l, key.instanceId(), e);
      }
    }
  }
}
