package dev.nacre.naming.health;

import dev.nacre.naming.api.NamingConfig;
import dev.nacre.naming.model.Instance;

/**
 * Heartbeat timing of one instance: its {@code preserved.*} metadata where present and valid,
 * else the configured defaults (Nacos: beat 5 s, unhealthy 15 s, removed 30 s).
 */
public record HeartbeatTiming(long beatIntervalMillis, long heartBeatTimeoutMillis, long ipDeleteTimeoutMillis) {

  public static HeartbeatTiming of(Instance instance, NamingConfig config) {
    return new HeartbeatTiming(
        millis(instance, Instance.HEART_BEAT_INTERVAL, config.defaultBeatInterval().toMillis()),
        millis(instance, Instance.HEART_BEAT_TIMEOUT, config.defaultHeartBeatTimeout().toMillis()),
        millis(instance, Instance.IP_DELETE_TIMEOUT, config.defaultIpDeleteTimeout().toMillis()));
  }

  // Validation rejects bad overrides at the edge; records that slipped through (e.g. from a peer)
  // fall back to the default rather than break the scan.
  private static long millis(Instance instance, String key, long fallback) {
    String value = instance.metadata().get(key);
    if (value == null) {
      return fallback;
    }
    try {
      long parsed = Long.parseLong(value.trim());
      return parsed > 0 ? parsed : fallback;
    } catch (NumberFormatException e) {
      return fallback;
    }
  }
}
