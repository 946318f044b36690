package dev.nacre.naming.distro;

import dev.nacre.consensus.distro.DistroRecord;
import dev.nacre.consensus.distro.RecordHome;
import dev.nacre.consensus.distro.RecordStamp;
import dev.nacre.consensus.distro.RecordsOnRead;
import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.ephemeral.EphemeralRecord;
import dev.nacre.naming.ephemeral.EphemeralStore;
import dev.nacre.naming.ephemeral.HeldRecord;
import dev.nacre.naming.ephemeral.ReplicaWrites;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link EphemeralStore} as Distro's home for ephemeral instance keys
 * ({@link DistroKeys#instanceKey}): the replicator reads records from the store (encoding a value
 * only when it sends or lists one) and stores peers' records there, so an instance is held once.
 *
 * <p>A peer's record that cannot be read, or that clashes with a persistent instance here, is
 * logged and refused: one bad record must not stop the rest of a batch.
 */
final class EphemeralHome implements RecordHome {
  private static final Logger log = LoggerFactory.getLogger(EphemeralHome.class);

  private final EphemeralStore store;
  private final ReplicaWrites replicas;

  EphemeralHome(EphemeralStore store) {
    this.store = store;
    this.replicas = store.replicas();
  }

  @Override
  public boolean homes(String key) {
    return DistroKeys.isInstanceKey(key);
  }

  @Override
  public Optional<DistroRecord> get(String key) {
    InstanceKey instanceKey;
    try {
      instanceKey = DistroKeys.parseInstanceKey(key);
    } catch (ReplicatedValueException e) {
      return Optional.empty();
    }
    return store.held(instanceKey).map(h -> record(key, h));
  }

  @Override
  public Stored store(DistroRecord r, Predicate<RecordStamp> accept) {
    try {
      EphemeralInstanceCodec.Replica decoded = r.tombstone() ? null
          : EphemeralInstanceCodec.decodeReplica(r.key(), r.value());
      Instance instance = decoded == null ? null : decoded.instance();
      InstanceKey key = instance == null ? DistroKeys.parseInstanceKey(r.key()) : instance.key();
      ReplicaWrites.Outcome o = r.owner().equals(store.localNodeId())
          ? replicas.takeBack(key, instance, r.revision(), accept) // only offered by outlivesRestart
          : replicas.store(key, instance, r.owner(), r.revision(), decoded != null && decoded.keptByBeats(), accept);
      return o.stored() ? new Stored(true, o.before() == null ? null : o.before().stamp()) : Stored.REFUSED;
    } catch (ReplicatedValueException e) {
      log.warn("[{}] skipped a record from {} that cannot be read: {}", store.localNodeId(),
          r.owner(), e.getMessage());
    } catch (NamingException e) {
      log.warn("[{}] skipped instance {} from {}: {}", store.localNodeId(),
          DistroKeys.abbreviate(r.key()), r.owner(), e.getMessage());
    }
    return Stored.REFUSED;
  }

  /** An instance kept alive by its client's beats (HTTP) outlives its owner's restart. */
  @Override
  public boolean outlivesRestart(DistroRecord r) {
    try {
      return EphemeralInstanceCodec.keptByBeats(r.key(), r.value()); // live: the store asks of no tombstone
    } catch (ReplicatedValueException e) {
      return false;
    }
  }

  @Override
  public boolean removeIf(String key, RecordStamp held) {
    try {
      return replicas.removeIf(DistroKeys.parseInstanceKey(key), held);
    } catch (ReplicatedValueException e) {
      return false;
    }
  }

  @Override
  public void forEachStamp(BiConsumer<String, RecordStamp> action) {
    replicas.forEach((k, h) -> action.accept(DistroKeys.instanceKey(k), h.stamp()));
  }

  /**
   * The records as held now, each encoded when it is read: a snapshot's sender reads them part by
   * part as its stream takes them, so the first part leaves without waiting for the rest to be
   * encoded. The held records are immutable, so a later read still gives what was held here.
   */
  @Override
  public List<DistroRecord> records(Predicate<RecordStamp> which) {
    List<InstanceKey> keys = new ArrayList<>();
    List<HeldRecord> held = new ArrayList<>();
    replicas.forEach((k, h) -> {
      if (which.test(h.stamp())) {
        keys.add(k);
        held.add(h);
      }
    });
    return RecordsOnRead.of(keys.size(), i -> record(DistroKeys.instanceKey(keys.get(i)), held.get(i)));
  }

  private static DistroRecord record(String key, HeldRecord h) {
    return h instanceof EphemeralRecord r
        ? DistroRecord.live(key, r.ownerNodeId(), r.revision(),
            EphemeralInstanceCodec.encode(r.instance(), !r.connectionOwned()))
        : DistroRecord.tombstone(key, h.ownerNodeId(), h.revision());
  }
}
