package dev.nacre.naming.ephemeral;

import dev.nacre.consensus.distro.RecordStamp;
import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replication side of the {@link EphemeralStore}: stores peers' records and forgets records
 * whose owner no longer has them, each checked and changed under the key's lock, so that a peer's
 * record and this node's own write of the same key are ranked in one place. Nothing here is
 * reported back to replication: these are not this node's writes.
 */
public final class ReplicaWrites {
  private static final Logger log = LoggerFactory.getLogger(ReplicaWrites.class);

  private final EphemeralStore store;

  ReplicaWrites(EphemeralStore store) {
    this.store = store;
  }

  /**
   * The outcome of {@link #store}.
   *
   * @param stored whether the record was stored
   * @param before what was held before (null when nothing)
   * @param after what is held now (null when nothing)
   */
  public record Outcome(boolean stored, HeldRecord before, HeldRecord after) {}

  /**
   * Stores the record {@code decodedOwner} wrote at {@code revision}: the instance, or its deletion
   * when {@code instance} is null, if {@code accept} takes the stamp held now (null when none).
   * An instance this node owned becomes a replica (the peer took it over) or goes.
   *
   * @param keptByBeats beats keep the instance alive on its owner, not a client connection there
   * @throws NamingException CONFLICT when a persistent instance holds the address here; then
   *     nothing changes
   */
  public Outcome store(InstanceKey parsedKey, Instance decoded, String decodedOwner, long revision,
      boolean keptByBeats, Predicate<RecordStamp> accept) {
    // A few members own every record: one copy of each id, not one per decoded record (56 bytes).
    String ownerNodeId = decodedOwner.intern();
    if (ownerNodeId.equals(store.localNodeId())) {
      throw new IllegalArgumentException("a replica of " + parsedKey.instanceId()
          + " cannot be owned by this node (" + ownerNodeId + ")");
    }
    return put(parsedKey, decoded, ownerNodeId, revision,
        keptByBeats ? "" : EphemeralRecord.OWNER_CONNECTION, accept);
  }

  /**
   * Takes back an instance this node owned before it restarted, found in a peer's snapshot while
   * this node loads, when beats keep it alive (an HTTP registration): its client goes on beating
   * here, so it must not vanish and come back. It is this node's own record again, at the
   * revision it had (the peers hold the same), its beats timed from now, so the heartbeat check
   * ends it as usual if its client is gone.
   */
  public Outcome takeBack(InstanceKey parsedKey, Instance decoded, long revision,
      Predicate<RecordStamp> accept) {
    return put(parsedKey, java.util.Objects.requireNonNull(decoded, "decoded"), store.localNodeId(),
        revision, "", accept);
  }

  private Outcome put(InstanceKey parsedKey, Instance decoded, String ownerNodeId, long revision,
      String clientId, Predicate<RecordStamp> accept) {
    if (decoded != null && (!decoded.ephemeral() || !decoded.key().equals(parsedKey))) {
      throw new IllegalArgumentException("not an ephemeral instance of " + parsedKey + ": " + decoded.key());
    }
    // One key object per instance, shared by the map, the record and the index.
    Instance instance = decoded == null ? null : store.sharingServiceKey(decoded);
    InstanceKey key = instance == null ? parsedKey : instance.key();
    HeldRecord[] before = new HeldRecord[1];
    boolean[] stored = {false};
    HeldRecord after = store.compute(key, (k, held) -> {
      before[0] = held;
      if (!accept.test(held == null ? null : held.stamp())) {
        return held;
      }
      if (instance != null) {
        store.index().putEphemeral(instance); // CONFLICT leaves everything as it was
      } else if (held instanceof EphemeralRecord) {
        store.index().remove(k, true);
      }
      if (held instanceof EphemeralRecord && store.isLocal(held) && !ownerNodeId.equals(store.localNodeId())) {
        log.info("[{}] instance {} was {} by {}; no longer checked here", store.localNodeId(),
            k.instanceId(), instance == null ? "deleted" : "taken over", ownerNodeId);
      }
      stored[0] = true;
      return instance == null ? new EphemeralTombstone(ownerNodeId, revision)
          : new EphemeralRecord(instance, ownerNodeId, revision, store.clock().millis(), clientId);
    });
    return new Outcome(stored[0], before[0], after);
  }

  /** Forgets the record of {@code key} if it is still exactly {@code held}; true when it did. */
  public boolean removeIf(InstanceKey key, RecordStamp held) {
    boolean[] removed = {false};
    store.compute(key, (k, current) -> {
      if (current == null || !current.stamp().equals(held)) {
        return current;
      }
      if (current instanceof EphemeralRecord) {
        store.index().remove(k, true);
      }
      removed[0] = true;
      return null;
    });
    return removed[0];
  }

  /** Calls {@code action} with every key held and its record, tombstones included. */
  public void forEach(BiConsumer<InstanceKey, HeldRecord> action) {
    store.map().forEach(action);
  }
}
