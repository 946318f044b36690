package dev.nacre.node.ports;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Open connections counted per key (a client's IP), for the per-IP caps of the HTTP and client
 * ports. A key leaves when its last connection closes, so the map holds only keys in use.
 */
public final class OpenConnections<K> {
  private final ConcurrentHashMap<K, AtomicInteger> counts = new ConcurrentHashMap<>();

  /** Counts one more connection of {@code key}; returns how many it has open now. */
  public int opened(K key) {
    return counts.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
  }

  /** Counts one less; returns true when {@code key} has none left. */
  public boolean closed(K key) {
    return counts.computeIfPresent(key, (k, n) -> n.decrementAndGet() <= 0 ? null : n) == null;
  }
}
