package dev.nacre.consensus.distro;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the replicator keeps about the records it holds, wherever their home is: a digest and
 * counts per owner (tombstones included), and when each tombstone may be forgotten. Fed with every
 * change as (key, stamp before, stamp after); digests are sums, so changes may arrive in any
 * order, even two of one key. One thread (the replicator's).
 */
final class RecordLedger {
  private final long tombstoneRetentionMillis;
  private final Map<String, long[]> byOwner = new HashMap<>(); // owner -> {count, checksum, live}
  private final ArrayDeque<Expiry> tombstones = new ArrayDeque<>();
  private int size;
  private int live;

  /** A tombstone due to be forgotten at {@code atMillis} if still held. */
  record Expiry(String key, RecordStamp stamp, long atMillis) {}

  RecordLedger(long tombstoneRetentionMillis) {
    this.tombstoneRetentionMillis = tombstoneRetentionMillis;
  }

  /** {@code key} now holds {@code after} instead of {@code before}; either may be null (none). */
  void changed(String key, RecordStamp before, RecordStamp after, long nowMillis) {
    if (before != null) {
      add(key, before, -1);
    }
    if (after != null) {
      add(key, after, +1);
      if (after.tombstone()) {
        tombstones.addLast(new Expiry(key, after, nowMillis + tombstoneRetentionMillis));
      }
    }
  }

  /** Tombstones whose retention has passed, oldest first; the caller forgets those still held. */
  List<Expiry> expired(long nowMillis) {
    List<Expiry> out = new ArrayList<>();
    while (!tombstones.isEmpty() && tombstones.peekFirst().atMillis() <= nowMillis) {
      out.add(tombstones.pollFirst());
    }
    return out;
  }

  OwnerDigest digestOf(String owner) {
    long[] d = byOwner.get(owner);
    return d == null ? new OwnerDigest(owner, 0, 0) : new OwnerDigest(owner, d[0], d[1]);
  }

  /** Records held, tombstones included. */
  int size() {
    return size;
  }

  /** Records that are not tombstones. */
  int liveCount() {
    return live;
  }

  /** Live records whose owner is {@code owner}. */
  int liveCountOf(String owner) {
    long[] d = byOwner.get(owner);
    return d == null ? 0 : (int) d[2];
  }

  private void add(String key, RecordStamp s, int sign) {
    long[] d = byOwner.computeIfAbsent(s.owner(), o -> new long[3]);
    d[0] += sign;
    d[1] += sign * Hashing.digestEntry(key, s.revision(), s.tombstone());
    size += sign;
    if (!s.tombstone()) {
      d[2] += sign;
      live += sign;
    }
    if (d[0] == 0 && d[1] == 0 && d[2] == 0) {
      byOwner.remove(s.owner());
    }
  }
}
