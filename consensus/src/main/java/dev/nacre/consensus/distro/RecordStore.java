package dev.nacre.consensus.distro;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The records one member holds: at most one per key, with a digest per owner (tombstones
 * included) and the counts kept up to date on every change, and tombstones forgotten after their
 * retention. There is no index by owner: the listings by owner are rare (a snapshot, a repair, an
 * owner lost) and a scan of the map costs less than one more map entry per record.
 */
final class RecordStore {
  private static final Comparator<DistroRecord> BY_KEY = Comparator.comparing(DistroRecord::key);

  private final long tombstoneRetentionMillis;
  private final Map<String, DistroRecord> byKey = new HashMap<>();
  private final Map<String, long[]> digests = new HashMap<>(); // owner -> {count, checksum, live}
  private int live;
  private final ArrayDeque<Expiry> tombstones = new ArrayDeque<>();

  private record Expiry(String key, String owner, long revision, long atMillis) {}

  RecordStore(long tombstoneRetentionMillis) {
    this.tombstoneRetentionMillis = tombstoneRetentionMillis;
  }

  Optional<DistroRecord> get(String key) {
    return Optional.ofNullable(byKey.get(key));
  }

  /** Stores {@code r} in place of whatever {@code r.key()} held; returns the previous record. */
  Optional<DistroRecord> put(DistroRecord r, long nowMillis) {
    DistroRecord previous = byKey.put(r.key(), r);
    if (previous != null) {
      unindex(previous);
    }
    if (r.tombstone()) {
      tombstones.addLast(new Expiry(r.key(), r.owner(), r.revision(),
          nowMillis + tombstoneRetentionMillis));
    }
    addToDigest(r, +1);
    return Optional.ofNullable(previous);
  }

  /** Forgets the record held for {@code key}; returns it. */
  Optional<DistroRecord> remove(String key) {
    DistroRecord previous = byKey.remove(key);
    if (previous != null) {
      unindex(previous);
    }
    return Optional.ofNullable(previous);
  }

  /** Every record owned by {@code owner}, tombstones included, sorted by key. */
  List<DistroRecord> ownedBy(String owner) {
    List<DistroRecord> out = new ArrayList<>();
    for (DistroRecord r : byKey.values()) {
      if (r.owner().equals(owner)) {
        out.add(r);
      }
    }
    out.sort(BY_KEY);
    return out;
  }

  /** Every record, tombstones included, sorted by key. */
  List<DistroRecord> all() {
    List<DistroRecord> out = new ArrayList<>(byKey.values());
    out.sort(BY_KEY);
    return out;
  }

  /** Live records only, by key. */
  Map<String, DistroRecord> live() {
    Map<String, DistroRecord> out = new HashMap<>();
    byKey.forEach((k, r) -> {
      if (!r.tombstone()) {
        out.put(k, r);
      }
    });
    return out;
  }

  OwnerDigest digestOf(String owner) {
    long[] d = digests.get(owner);
    return d == null ? new OwnerDigest(owner, 0, 0) : new OwnerDigest(owner, d[0], d[1]);
  }

  /** Forgets tombstones whose retention has passed (unless a newer record replaced them). */
  void expireTombstones(long nowMillis) {
    while (!tombstones.isEmpty() && tombstones.peekFirst().atMillis() <= nowMillis) {
      Expiry e = tombstones.pollFirst();
      DistroRecord held = byKey.get(e.key());
      if (held != null && held.tombstone() && held.revision() == e.revision()
          && held.owner().equals(e.owner())) {
        remove(e.key());
      }
    }
  }

  int size() {
    return byKey.size();
  }

  /** Records that are not tombstones. */
  int liveCount() {
    return live;
  }

  /** Live records whose owner is {@code owner}. */
  int liveCountOf(String owner) {
    long[] d = digests.get(owner);
    return d == null ? 0 : (int) d[2];
  }

  private void unindex(DistroRecord r) {
    addToDigest(r, -1);
  }

  private void addToDigest(DistroRecord r, int sign) {
    long[] d = digests.computeIfAbsent(r.owner(), o -> new long[3]);
    d[0] += sign;
    d[1] += sign * Hashing.digestEntry(r.key(), r.revision(), r.tombstone());
    if (!r.tombstone()) {
      d[2] += sign;
      live += sign;
    }
    if (d[0] == 0) {
      digests.remove(r.owner());
    }
  }
}
