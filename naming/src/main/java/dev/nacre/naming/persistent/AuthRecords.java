package dev.nacre.naming.persistent;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The applied client-authentication records (users, role grants, permissions) of this member, by
 * kind and name: what the Raft log holds, kept in memory for the checks every request makes. The
 * values are opaque here; the node's auth layer encodes and reads them.
 *
 * <p>Thread-safe. Written by the state machine's apply thread (and at load), read by any thread;
 * {@link #version} moves with every change so that readers can cache what they derive.
 */
public final class AuthRecords {
  // Swapped whole on load, so that a reader never sees the records half loaded.
  private volatile ConcurrentHashMap<String, Map<String, byte[]>> byKind = new ConcurrentHashMap<>();
  private final AtomicLong version = new AtomicLong();

  /** The value of the record, if there is one. */
  public Optional<byte[]> get(String kind, String name) {
    Map<String, byte[]> records = byKind.get(kind);
    return Optional.ofNullable(records == null ? null : records.get(name)).map(byte[]::clone);
  }

  /** Every record of {@code kind}, by name, sorted. */
  public Map<String, byte[]> list(String kind) {
    Map<String, byte[]> out = new TreeMap<>();
    Map<String, byte[]> records = byKind.get(kind);
    if (records != null) {
      records.forEach((name, value) -> out.put(name, value.clone()));
    }
    return out;
  }

  /** Changes with every applied change; equal versions mean equal contents. */
  public long version() {
    return version.get();
  }

  void put(String kind, String name, byte[] value) {
    byKind.computeIfAbsent(kind, k -> new ConcurrentHashMap<>()).put(name, value.clone());
    version.incrementAndGet();
  }

  void remove(String kind, String name) {
    Map<String, byte[]> records = byKind.get(kind);
    if (records != null && records.remove(name) != null) {
      version.incrementAndGet();
    }
  }

  /** Replaces everything at once (load, snapshot install). */
  void replaceAll(Map<String, Map<String, byte[]>> loaded) {
    ConcurrentHashMap<String, Map<String, byte[]>> next = new ConcurrentHashMap<>();
    loaded.forEach((kind, records) -> next.put(kind, new ConcurrentHashMap<>(records)));
    byKind = next;
    version.incrementAndGet();
  }
}
