package dev.nacre.consensus.distro;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Applies records that come from peers to the {@link RecordStore} and tells the handler (through
 * the {@link EffectBuffer}) what changed: newer records win, the owner's full set replaces a
 * member's view of that owner, a lost owner's records go.
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
    Optional<DistroRecord> held = store.get(r.key());
    if (held.isEmpty() || r.isNewerThan(held.get())) {
      put(r, held, now);
    }
  }

  /**
   * Applies the snapshot of the initial load, except records this member owns: an earlier run of
   * it wrote them and those writes died with it. Not taking them back keeps this member's view of
   * its own records the truth that verify copies (verify removes them from peers); its new writes
   * still outrank them.
   */
  void applyInitialLoad(DistroSnapshot snapshot, long now) {
    for (DistroRecord r : snapshot.records()) {
      if (r.owner().equals(selfId)) {
        revisions.observe(r.revision());
      } else {
        applyIfNewer(r, now);
      }
    }
  }

  /**
   * Makes this member's view of {@code owner}'s records equal to the owner's full set: keeps only
   * what is newer than the snapshot (on its way from the owner), and records of the same keys that
   * other owners wrote later. Returns true when records were dropped without a replacement.
   */
  boolean replaceOwner(String owner, DistroSnapshot snapshot, long now) {
    long highWater = snapshot.highWaterRevision();
    Set<String> inSnapshot = new HashSet<>();
    for (DistroRecord r : snapshot.records()) {
      if (!r.owner().equals(owner)) {
        continue;
      }
      inSnapshot.add(r.key());
      Optional<DistroRecord> held = store.get(r.key());
      boolean replace = held.isEmpty()
          || (held.get().owner().equals(owner)
              ? held.get().revision() <= highWater && !held.get().equals(r)
              : r.isNewerThan(held.get()));
      if (replace) {
        put(r, held, now);
      }
    }
    boolean dropped = false;
    for (DistroRecord held : store.ownedBy(owner)) {
      if (!inSnapshot.contains(held.key()) && held.revision() <= highWater) {
        drop(held);
        dropped = true;
      }
    }
    return dropped;
  }

  /** The owner's grace period ended: every record of it goes. */
  void removeOwner(String owner) {
    store.ownedBy(owner).forEach(this::drop);
  }

  /**
   * How often records were dropped without a newer one in their place: only then can an older
   * record of the same key come back.
   */
  long droppedWithoutReplacement() {
    return droppedWithoutReplacement;
  }

  private void put(DistroRecord r, Optional<DistroRecord> held, long now) {
    store.put(r, now);
    if (r.owner().equals(selfId)) {
      revisions.observe(r.revision());
    }
    if (!r.tombstone() || held.filter(h -> !h.tombstone()).isPresent()) {
      out.apply(r);
    }
  }

  private void drop(DistroRecord held) {
    droppedWithoutReplacement++;
    store.remove(held.key());
    if (!held.tombstone()) {
      out.remove(held);
    }
  }
}
