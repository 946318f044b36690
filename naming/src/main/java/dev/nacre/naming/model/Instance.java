package dev.nacre.naming.model;

import java.util.Map;
import java.util.Objects;

/**
 * An instance as consumers see it. Immutable; changes produce new values.
 *
 * @param weight 0..10000, Nacos' default 1.0
 * @param metadata string map; {@code preserved.*} keys tune heartbeat timing per instance
 */
public record Instance(
    InstanceKey key,
    double weight,
    boolean healthy,
    boolean enabled,
    boolean ephemeral,
    Map<String, String> metadata) {

  public static final String HEART_BEAT_INTERVAL = "preserved.heart.beat.interval";
  public static final String HEART_BEAT_TIMEOUT = "preserved.heart.beat.timeout";
  public static final String IP_DELETE_TIMEOUT = "preserved.ip.delete.timeout";
  public static final long DEFAULT_HEART_BEAT_INTERVAL_MS = 5_000;
  public static final long DEFAULT_HEART_BEAT_TIMEOUT_MS = 15_000;
  public static final long DEFAULT_IP_DELETE_TIMEOUT_MS = 30_000;

  public Instance {
    Objects.requireNonNull(key, "key");
    metadata = Map.copyOf(metadata);
  }

  public long heartBeatIntervalMillis() {
    return millis(HEART_BEAT_INTERVAL, DEFAULT_HEART_BEAT_INTERVAL_MS);
  }

  public long heartBeatTimeoutMillis() {
    return millis(HEART_BEAT_TIMEOUT, DEFAULT_HEART_BEAT_TIMEOUT_MS);
  }

  public long ipDeleteTimeoutMillis() {
    return millis(IP_DELETE_TIMEOUT, DEFAULT_IP_DELETE_TIMEOUT_MS);
  }

  /** The same instance under {@code other}, an equal key (another object of it). */
  public Instance withKey(InstanceKey other) {
    if (!other.equals(key)) {
      throw new IllegalArgumentException(other + " is not " + key);
    }
    return new Instance(other, weight, healthy, enabled, ephemeral, metadata);
  }

  public Instance withHealthy(boolean value) {
    return new Instance(key, weight, value, enabled, ephemeral, metadata);
  }

  // Unparseable overrides fall back to the default, as Nacos does; validation rejects them at the edge.
  private long millis(String metadataKey, long fallback) {
    String value = metadata.get(metadataKey);
    if (value == null) {
      return fallback;
    }
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      return fallback;
    }
  }
}
