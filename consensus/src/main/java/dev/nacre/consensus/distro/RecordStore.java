package dev.nacre.consensus.distro;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Every record a member holds, at most one per key: those of keys the application's
 * {@link RecordHome} keeps are read and written there; the others are kept here. The
 * {@link RecordLedger} follows both, so digests and counts cover every record. There is no index
 * by owner: the listings by owner are rare (a snapshot, a repair, an owner lost) and a scan costs
 * less than one more map entry per record. The replicator's thread only.
 */
final class RecordStore {
  private static final Comparator<DistroRecord> BY_KEY = Comparator.comparing(DistroRecord::key);

  private final Map<String, DistroRecord> byKey = new HashMap<>();
  private final RecordHome home;
  private final RecordLedger ledger;

  /** @param home where the application keeps its keys; null when it keeps none */
  RecordStore(long tombstoneRetentionMillis, RecordHome home) {
    this.home = home;
    this.ledger = new RecordLedger(tombstoneRetentionMillis);
  }

  /** True when the application's home keeps {@code key}. */
  boolean homed(String key) {
    return home != null && home.homes(key);
  }

  Optional<DistroRecord> get(String key) {
    return homed(key) ? home.get(key) : Optional.ofNullable(byKey.get(key));
  }

  /** Stores {@code r} if {@code accept} takes the stamp held now (null when none). */
  RecordHome.Stored storeIf(DistroRecord r, Predicate<RecordStamp> accept, long nowMillis) {
    RecordHome.Stored s;
    if (homed(r.key())) {
      s = home.store(r, accept);
    } else {
      DistroRecord held = byKey.get(r.key());
      RecordStamp previous = held == null ? null : RecordStamp.of(held);
      if (!accept.test(previous)) {
        return RecordHome.Stored.REFUSED;
      }
      byKey.put(r.key(), r);
      s = new RecordHome.Stored(true, previous);
    }
    if (s.stored()) {
      ledger.changed(r.key(), s.previous(), RecordStamp.of(r), nowMillis);
    }
    return s;
  }

  /** See {@link RecordHome#outlivesRestart}; never for the keys kept here. */
  boolean outlivesRestart(DistroRecord r) {
    return !r.tombstone() && homed(r.key()) && home.outlivesRestart(r);
  }

  /** Forgets the record of {@code key} if it is still exactly {@code held}; true when it did. */
  boolean removeIf(String key, RecordStamp held) {
    boolean removed;
    if (homed(key)) {
      removed = home.removeIf(key, held);
    } else {
      DistroRecord r = byKey.get(key);
      removed = r != null && held.stamps(r);
      if (removed) {
        byKey.remove(key);
      }
    }
    if (removed) {
      ledger.changed(key, held, null, 0);
    }
    return removed;
  }

  /** The application's home stored this member's write {@code after} in place of {@code before}. */
  void homeStored(String key, RecordStamp before, RecordStamp after, long nowMillis) {
    ledger.changed(key, before, after, nowMillis);
  }

  /** The stamps of every record owned by {@code owner}, tombstones included, by key. */
  Map<String, RecordStamp> stampsOwnedBy(String owner) {
    Map<String, RecordStamp> out = new HashMap<>();
    byKey.forEach((k, r) -> {
      if (r.owner().equals(owner)) {
        out.put(k, RecordStamp.of(r));
      }
    });
    if (home != null) {
      home.forEachStamp((k, s) -> {
        if (s.owner().equals(owner)) {
          out.put(k, s);
        }
      });
    }
    return out;
  }

  /** Every record, tombstones included, sorted by key. */
  List<DistroRecord> all() {
    return list(s -> true);
  }

  /** Live records only, by key. */
  Map<String, DistroRecord> live() {
    Map<String, DistroRecord> out = new HashMap<>();
    list(s -> !s.tombstone()).forEach(r -> out.put(r.key(), r));
    return out;
  }

  OwnerDigest digestOf(String owner) {
    return ledger.digestOf(owner);
  }

  /** Forgets tombstones whose retention has passed (unless a newer record replaced them). */
  void expireTombstones(long nowMillis) {
    for (RecordLedger.Expiry e : ledger.expired(nowMillis)) {
      removeIf(e.key(), e.stamp());
    }
  }

  int size() {
    return ledger.size();
  }

  int liveCount() {
    return ledger.liveCount();
  }

  int liveCountOf(String owner) {
    return ledger.liveCountOf(owner);
  }

  /**
   * Begins a listing of the records {@code which} takes: the ones kept here are taken now (the
   * replicator's thread only); the home's are listed by {@link Listing#complete}, on any thread.
   */
  Listing beginListing(Predicate<RecordStamp> which) {
    List<DistroRecord> kept = new ArrayList<>();
    byKey.values().forEach(r -> {
      if (which.test(RecordStamp.of(r))) {
        kept.add(r);
      }
    });
    return new Listing(kept, home, which);
  }

  /**
   * A listing whose second half may run off the replicator's thread: the home lets any thread read
   * it, and at a million instances listing and encoding it took the replicator's thread seconds.
   */
  record Listing(List<DistroRecord> kept, RecordHome home, Predicate<RecordStamp> which) {
    /**
     * Every record listed, in no particular order. The home's may be encoded as they are read
     * ({@link RecordHome#records}): a snapshot's sender then encodes part by part as it sends.
     */
    List<DistroRecord> complete() {
      List<DistroRecord> homed = home == null ? List.of() : home.records(which);
      return kept.isEmpty() ? homed : RecordsOnRead.joined(kept, homed);
    }
  }

  private List<DistroRecord> list(Predicate<RecordStamp> which) {
    List<DistroRecord> out = new ArrayList<>(beginListing(which).complete());
    out.sort(BY_KEY);
    return out;
  }
}
