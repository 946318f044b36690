package dev.nacre.consensus.distro;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Applies records that come from peers to the {@link RecordStore}: newer records win, the owner's
 * full set replaces a member's view of that owner, a lost owner's records go. Keys kept by the
 * application's home are applied there by the store; for the others the handler learns what
 * changed (through the {@link EffectBuffer}).
 */
final class RecordApplier {
  private final String selfId;
  private final RecordStore store;
  private final OwnerLossTracker ownerLoss;
  private final RevisionCounter revisions;
  private final EffectBuffer out;
  private long droppedWithoutReplacement;

  RecordApplier(String selfId, RecordStore store, OwnerLossTracker ownerLoss,
      RevisionCounter revisions, EffectBuffer out) {
    this.selfId = selfId;
    this.store = store;
    this.ownerLoss = ownerLoss;
    this.revisions = revisions;
    this.out = out;
  }

  /** Stores {@code r} if it is newer than what is held for its key. */
  void applyIfNewer(DistroRecord r, long now) {
    if (ownerLoss.refuses(r.owner())) {
      return;
    }
    put(r, held -> held == null || held.isReplacedBy(r), now);
  }

  /**
   * Applies the snapshot of the initial load, except records this member owns that do not
   * outlive its restart ({@link RecordHome#outlivesRestart}): an earlier run of it wrote them and
   * those writes died with it. Not taking them back keeps this member's view of its own records
   * the truth that verify copies (verify removes them from peers); its new writes still outrank
   * them. The records that outlive it are taken back as they are, so peers and this member agree.
   */
  void applyInitialLoad(List<DistroRecord> records, long now) {
    for (DistroRecord r : records) {
      if (r.owner().equals(selfId)) {
        revisions.observe(r.revision());
        if (store.outlivesRestart(r)) {
          put(r, held -> held == null || held.isReplacedBy(r), now);
        }
      } else {
        applyIfNewer(r, now);
      }
    }
  }

  /**
   * A pull's answer, applied a slice at a time ({@link #applySlice}, then {@link #finishReplacing})
   * so that a set of hundreds of thousands of records does not hold the replicator's thread for
   * seconds: batches, digests and ticks run between the slices.
   */
  static final class OwnerReplacement {
    private final String owner;
    private final long requestId;
    private final long highWater;
    private final List<DistroRecord> records;
    private final Set<String> inSnapshot = new HashSet<>();
    private int next;

    private OwnerReplacement(String owner, long requestId, DistroSnapshot snapshot) {
      this.owner = owner;
      this.requestId = requestId;
      this.highWater = snapshot.highWaterRevision();
      this.records = snapshot.records();
    }

    String owner() {
      return owner;
    }

    long requestId() {
      return requestId;
    }

    boolean allApplied() {
      return next >= records.size();
    }
  }

  /** Starts making this member's view of {@code owner}'s records equal to its full set. */
  OwnerReplacement startReplacing(String owner, long requestId, DistroSnapshot snapshot) {
    return new OwnerReplacement(owner, requestId, snapshot);
  }

  /**
   * Applies up to {@code max} more records of the set: each replaces what is held unless what is
   * held is newer than the snapshot (on its way from the owner, or written later by another owner).
   */
  void applySlice(OwnerReplacement r, int max, long now) {
    int end = (int) Math.min(r.records.size(), (long) r.next + max);
    for (; r.next < end; r.next++) {
      DistroRecord record = r.records.get(r.next);
      if (!record.owner().equals(r.owner)) {
        continue;
      }
      r.inSnapshot.add(record.key());
      put(record, held -> held == null
          || (held.owner().equals(r.owner)
              ? held.revision() <= r.highWater && !held.stamps(record)
              : held.isReplacedBy(record)), now);
    }
  }

  /**
   * Once every slice is applied: drops the owner's records the set no longer has (those no newer
   * than the snapshot). Returns true when records were dropped without a replacement.
   */
  boolean finishReplacing(OwnerReplacement r) {
    boolean[] dropped = {false};
    store.stampsOwnedBy(r.owner).forEach((key, held) -> {
      if (!r.inSnapshot.contains(key) && held.revision() <= r.highWater && drop(key, held)) {
        dropped[0] = true;
      }
    });
    return dropped[0];
  }

  /** The owner's grace period ended: every record of it goes. */
  void removeOwner(String owner) {
    store.stampsOwnedBy(owner).forEach(this::drop);
  }

  /**
   * How often records were dropped without a newer one in their place: only then can an older
   * record of the same key come back.
   */
  long droppedWithoutReplacement() {
    return droppedWithoutReplacement;
  }

  private void put(DistroRecord r, Predicate<RecordStamp> accept, long now) {
    RecordHome.Stored s = store.storeIf(r, accept, now);
    if (!s.stored()) {
      return;
    }
    if (r.owner().equals(selfId)) {
      revisions.observe(r.revision());
    }
    boolean heldLive = s.previous() != null && !s.previous().tombstone();
    if (!store.homed(r.key()) && (!r.tombstone() || heldLive)) {
      out.apply(r);
    }
  }

  private boolean drop(String key, RecordStamp held) {
    DistroRecord record = store.homed(key) ? null : store.get(key).orElse(null);
    if (!store.removeIf(key, held)) {
      return false;
    }
    droppedWithoutReplacement++;
    if (record != null && !record.tombstone()) {
      out.remove(record);
    }
    return true;
  }
}
