package dev.nacre.naming.ephemeral;

import dev.nacre.consensus.distro.OwnWrites;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.registry.RegistryIndex;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ephemeral (AP) instances of this node: memory only, the one home of each ephemeral record.
 * It keeps the ephemeral part of the {@link RegistryIndex} in step under the same per-key lock,
 * and Distro replicates straight from it ({@link ReplicaWrites} stores what peers send).
 *
 * <p>Each record is either owned by this node (registered or beaten here: this node checks its
 * heartbeats and its changes are replicated) or a replica of another member's record. A beat or a
 * registration arriving here for a replica makes this node its owner (takeover); a peer's newer
 * record for an owned instance makes it a replica (the peer took it over).
 *
 * <p>Revisions come from {@link OwnWrites}: standalone until {@link #replicateThrough} hands over
 * the replicator's, which then learns every own change as it is stored, under the key's lock (so
 * in order per key). Replicated, a deletion leaves an {@link EphemeralTombstone} that replication
 * forgets after its retention; standalone, nothing is left.
 *
 * <p>Thread-safe.
 */
public final class EphemeralStore {
  private static final Logger log = LoggerFactory.getLogger(EphemeralStore.class);

  private final String localNodeId;
  private final Clock clock;
  private final RegistryIndex index;
  private final ConcurrentHashMap<InstanceKey, HeldRecord> records = new ConcurrentHashMap<>();
  private final ClientKeyIndex clientKeys = new ClientKeyIndex();
  private final ReplicaWrites replicas = new ReplicaWrites(this);
  private volatile OwnWrites ownWrites;
  private volatile Function<InstanceKey, String> replicatedKey; // null: standalone

  public EphemeralStore(String localNodeId, Clock clock, RegistryIndex index) {
    this.localNodeId = localNodeId;
    this.clock = clock;
    this.index = index;
    this.ownWrites = OwnWrites.standalone(localNodeId, clock::millis);
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

  /**
   * From now on own writes take their revisions from {@code writes} and are reported to it, each
   * under the key {@code keyOf} gives; the instances this node already owns are reported once.
   */
  public synchronized void replicateThrough(OwnWrites writes, Function<InstanceKey, String> keyOf) {
    if (!writes.selfId().equals(localNodeId)) {
      throw new IllegalArgumentException("replication writes as '" + writes.selfId()
          + "' but the ephemeral store is '" + localNodeId + "'; give both the node's member address");
    }
    writes.write(() -> {
      ownWrites = writes;
      replicatedKey = Objects.requireNonNull(keyOf, "keyOf");
      records.forEach((key, held) -> records.computeIfPresent(key, (k, h) -> {
        if (isLocal(h)) {
          writes.observe(h.revision());
          writes.stored(keyOf.apply(k), null, h.stamp());
        }
        return h;
      }));
      return null;
    });
  }

  /** True when this node owns the instance (it is here and not a replica of another member's). */
  public boolean ownsLocally(InstanceKey key) {
    EphemeralRecord r = live(records.get(key));
    return r != null && isLocal(r);
  }

  /**
   * Registers or replaces an instance owned by this node; counts as a beat. CONFLICT (from the
   * index) when a persistent instance holds the same address, and then nothing changes.
   */
  public EphemeralRecord register(Instance instance) {
    return registerForClient(instance, "", "registered here");
  }

  /**
   * Registers or replaces an instance owned by this node and tied to the client connection
   * {@code clientId}: heartbeat timeouts do not apply to it, and {@link #removeIfClient} removes
   * it when the connection goes. A later beat-driven {@link #register} of the same key unties it.
   * CONFLICT (from the index) when a persistent instance holds the same address.
   */
  public EphemeralRecord registerForClient(Instance instance, String clientId) {
    if (clientId.isEmpty()) {
      throw new IllegalArgumentException("empty client id for " + instance.key().instanceId());
    }
    return registerForClient(instance, clientId, "client " + clientId + " registered it here");
  }

  private EphemeralRecord registerForClient(Instance registered, String clientId, String how) {
    if (!registered.ephemeral()) {
      throw new IllegalArgumentException("not an ephemeral instance: " + registered.key());
    }
    Instance instance = sharingServiceKey(registered);
    return (EphemeralRecord) writeOwn(instance.key(), (key, held) -> {
      EphemeralRecord next = stamp(instance, clock.millis(), clientId, held);
      index.putEphemeral(instance);
      if (held != null && !isLocal(held) && held instanceof EphemeralRecord) {
        log.info("[{}] took over instance {} from {}: {}", localNodeId, key.instanceId(),
            held.ownerNodeId(), how);
      }
      return next;
    });
  }

  /**
   * Writes the instance to the index again, unchanged here, so that the index lays the current
   * operator override over it; a no-op when the instance is absent.
   */
  public void reindex(InstanceKey key) {
    records.computeIfPresent(key, (k, held) -> {
      if (held instanceof EphemeralRecord r) {
        index.putEphemeral(r.instance());
      }
      return held;
    });
  }

  public Optional<EphemeralRecord> get(InstanceKey key) {
    return Optional.ofNullable(live(records.get(key)));
  }

  /** What is held for {@code key}, a tombstone included; empty when nothing. */
  public Optional<HeldRecord> held(InstanceKey key) {
    return Optional.ofNullable(records.get(key));
  }

  /** Instances this node owns (not replicas of a peer's), counted now. */
  public long countOwned() {
    return records.values().stream().filter(h -> h instanceof EphemeralRecord && isLocal(h)).count();
  }

  /** Instances held, owned and replicas (tombstones not counted), counted now. */
  public int count() {
    return (int) records.values().stream().filter(h -> h instanceof EphemeralRecord).count();
  }

  /** Every instance held, owned and replicas, for health scans and listings. */
  public List<EphemeralRecord> records() {
    return records.values().stream()
        .filter(h -> h instanceof EphemeralRecord)
        .map(h -> (EphemeralRecord) h)
        .toList();
  }

  /** Removes an instance; removing an absent one is a no-op. */
  public void remove(InstanceKey key) {
    writeOwn(key, (k, held) -> held instanceof EphemeralRecord ? delete(k, held) : held);
  }

  /**
   * Refreshes the last beat; an unhealthy instance becomes healthy again. A beat for a replica
   * takes it over: the node layer sends a beat here only when this node is now responsible for
   * the service (for example its previous owner went DOWN), so this node becomes the owner.
   *
   * @return the record after the beat, empty when the instance is unknown
   */
  public Optional<EphemeralRecord> beat(InstanceKey key) {
    HeldRecord after = writeOwn(key, (k, held) -> {
      if (!(held instanceof EphemeralRecord current)) {
        return held;
      }
      long now = clock.millis();
      if (!isLocal(current)) {
        Instance alive = current.instance().withHealthy(true);
        index.putEphemeral(alive);
        log.info("[{}] took over instance {} from {}: it beat here", localNodeId,
            k.instanceId(), current.ownerNodeId());
        return stamp(alive, now, "", held);
      }
      if (current.instance().healthy()) {
        // Only the time moved: nothing for the index or for peers.
        return new EphemeralRecord(current.instance(), current.ownerNodeId(), current.revision(),
            now, current.clientId());
      }
      Instance revived = current.instance().withHealthy(true);
      index.putEphemeral(revived);
      log.info("Instance {} beat again and is healthy", k.instanceId());
      return stamp(revived, now, current.clientId(), held);
    });
    return Optional.ofNullable(live(after));
  }

  /** Marks the instance unhealthy unless a beat arrived after {@code observed} was read. */
  public boolean markUnhealthy(EphemeralRecord observed) {
    boolean[] changed = {false};
    writeOwn(observed.key(), (k, held) -> {
      if (!(held instanceof EphemeralRecord current) || !isLocal(current)
          || current.lastBeatMillis() != observed.lastBeatMillis()
          || !current.instance().healthy()) {
        return held;
      }
      Instance sick = current.instance().withHealthy(false);
      index.putEphemeral(sick);
      changed[0] = true;
      return new EphemeralRecord(sick, localNodeId, ownWrites.nextRevision(current.revision()),
          current.lastBeatMillis(), current.clientId());
    });
    return changed[0];
  }

  /** Removes the instance unless a beat arrived after {@code observed} was read. */
  public boolean expire(EphemeralRecord observed) {
    boolean[] removed = {false};
    writeOwn(observed.key(), (k, held) -> {
      // Owned-by-us check: a peer may have taken the instance over since the scan read it.
      if (!(held instanceof EphemeralRecord current) || !isLocal(current)
          || current.lastBeatMillis() != observed.lastBeatMillis()) {
        return held;
      }
      removed[0] = true;
      return delete(k, held);
    });
    return removed[0];
  }

  /**
   * Removes the instance if the client connection {@code clientId} still owns it here (another
   * connection, an HTTP registration or a peer may have taken it since).
   *
   * @return whether it was removed
   */
  public boolean removeIfClient(InstanceKey key, String clientId) {
    boolean[] removed = {false};
    writeOwn(key, (k, held) -> {
      if (!(held instanceof EphemeralRecord current) || !isLocal(current)
          || !current.clientId().equals(clientId)) {
        return held;
      }
      removed[0] = true;
      return delete(k, held);
    });
    return removed[0];
  }

  /** The instances this node holds for the client connection {@code clientId}. */
  public List<EphemeralRecord> recordsOfClient(String clientId) {
    return ownedBy(clientId, clientKeys.keysOf(clientId));
  }

  /** The instances of {@code service} this node holds for the client connection {@code clientId}. */
  public List<EphemeralRecord> recordsOfClient(String clientId, ServiceKey service) {
    return ownedBy(clientId, clientKeys.keysOf(clientId, service));
  }

  /** Client connections that own at least one instance here; for metrics and tests. */
  public int connectionOwners() {
    return clientKeys.clients();
  }

  /**
   * Stores a peer's record of a beat-driven instance as its owner {@code ownerNodeId} wrote it,
   * whatever is held (tests and benchmarks that stand in for replication). CONFLICT when a
   * persistent instance holds the address.
   */
  public EphemeralRecord putReplica(Instance instance, String ownerNodeId, long revision) {
    return (EphemeralRecord) replicas.store(instance.key(), instance, ownerNodeId, revision, true,
        held -> true).after();
  }

  /** Where replication stores peers' records; see {@link ReplicaWrites}. */
  public ReplicaWrites replicas() {
    return replicas;
  }

  // ---- shared with ReplicaWrites ----

  /**
   * The instance under a key whose service key is the index's object for that service, when the
   * service exists: a parsed request or a decoded replica brings a service key of its own, and
   * kept per instance that costs a key object (and its strings) per instance.
   */
  Instance sharingServiceKey(Instance instance) {
    InstanceKey key = instance.key();
    ServiceKey shared = index.service(key.service()).map(s -> s.key()).orElse(key.service());
    return shared == key.service() ? instance
        : instance.withKey(new InstanceKey(shared, key.cluster(), key.ip(), key.port()));
  }

  ConcurrentHashMap<InstanceKey, HeldRecord> map() {
    return records;
  }

  /** Every change of a record goes through here, so the connection index moves under its lock. */
  HeldRecord compute(InstanceKey key, BiFunction<InstanceKey, HeldRecord, HeldRecord> change) {
    return records.compute(key, (k, held) -> {
      HeldRecord next = change.apply(k, held);
      if (next != held) {
        clientKeys.moved(k, live(held), live(next));
      }
      return next;
    });
  }

  boolean isLocal(HeldRecord r) {
    return r.ownerNodeId().equals(localNodeId);
  }

  static EphemeralRecord live(HeldRecord h) {
    return h instanceof EphemeralRecord r ? r : null;
  }

  // ---- internals ----

  /**
   * A change of this node's: revisions issued and the result reported inside one write. The report
   * comes once the map holds the result: the replicator may read the key the moment it hears of
   * it, and a report made inside {@code compute} could find the record before the change (the
   * change then left only by the next verify, up to 5 s later).
   */
  private HeldRecord writeOwn(InstanceKey key, BiFunction<InstanceKey, HeldRecord, HeldRecord> change) {
    OwnWrites writes = ownWrites;
    return writes.write(() -> {
      HeldRecord[] before = new HeldRecord[1];
      HeldRecord next = compute(key, (k, held) -> {
        before[0] = held;
        return change.apply(k, held);
      });
      HeldRecord held = before[0];
      Function<InstanceKey, String> keyOf = replicatedKey;
      if (next != null && keyOf != null && isLocal(next)
          && (held == null || held.revision() != next.revision() || !isLocal(held))) {
        writes.stored(keyOf.apply(key), held == null ? null : held.stamp(), next.stamp());
      }
      return next;
    });
  }

  /** This node deletes {@code k}: a tombstone when replicated, nothing standalone. */
  private HeldRecord delete(InstanceKey k, HeldRecord held) {
    index.remove(k, true);
    return replicatedKey == null ? null
        : new EphemeralTombstone(localNodeId, ownWrites.nextRevision(held.revision()));
  }

  private EphemeralRecord stamp(Instance instance, long lastBeat, String clientId, HeldRecord held) {
    long revision = ownWrites.nextRevision(held == null ? 0 : held.revision());
    return new EphemeralRecord(instance, localNodeId, revision, lastBeat, clientId);
  }

  private List<EphemeralRecord> ownedBy(String clientId, List<InstanceKey> keys) {
    return keys.stream()
        .map(k -> live(records.get(k)))
        .filter(r -> r != null && r.clientId().equals(clientId) && isLocal(r))
        .toList();
  }
}
