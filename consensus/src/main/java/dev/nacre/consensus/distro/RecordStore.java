package dev.nacre.consensus.distro;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The records one member holds: at most one per key, indexed by owner, with a digest per owner
 * (tombstones included) kept up to date on every change, and tombstones forgotten after their
 * retention.
 */
final class RecordStore {
  private static final Comparator<DistroRecord> BY_KEY = Comparator.comparing(DistroRecord::key);

  private final long tombstoneRetentionMillis;
  private final Map<String, DistroRecord> byKey = new HashMap<>();
  private final Map<String, Set<String>> keysByOwner = new HashMap<>();
  private final Map<String, long[]> digests = new HashMap<>(); // owner -> {count, checksum}
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
    keysByOwner.computeIfAbsent(r.owner(), o -> new HashSet<>()).add(r.key());
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
    for (String key : keysByOwner.getOrDefault(owner, Set.of())) {
      out.add(byKey.get(key));
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

  private void unindex(DistroRecord r) {
    Set<String> keys = keysByOwner.get(r.owner());
    if (keys != null) {
      keys.remove(r.key());
      if (keys.isEmpty()) {
        keysByOwner.remove(r.owner());
      }
    }
    addToDigest(r, -1);
  }

  private void addToDigest(DistroRecord r, int sign) {
    long[] d = digests.computeIfAbsent(r.owner(), o -> new long[2]);
    d[0] += sign;
    d[1] += sign * Hashing.digestEntry(r.key(), r.revision(), r.tombstone());
    if (d[0] == 0) {
      digests.remove(r.owner());
    }
  }
}
