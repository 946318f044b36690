package dev.nacre.config.operations;

import dev.nacre.config.api.ConfigException;
import dev.nacre.config.api.ConfigException.Kind;
import java.time.Clock;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Publishes per second per source address: a token bucket per address holding at most one
 * second's worth, refilled by the injected clock. Thread-safe. Idle buckets (full again) are
 * dropped once there are many, so the map stays bounded by the addresses active in a second.
 */
final class PublishLimiter {
  private static final int PRUNE_ABOVE = 10_000;

  private final int perSecond;
  private final Clock clock;
  private final ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();

  PublishLimiter(int perSecond, Clock clock) {
    this.perSecond = perSecond;
    this.clock = clock;
  }

  /** Takes one publish of {@code ip}, or refuses it with {@link Kind#LIMITED}. */
  void acquire(String ip) {
    if (perSecond <= 0) {
      return;
    }
    long now = clock.millis();
    if (buckets.size() > PRUNE_ABOVE) {
      buckets.values().removeIf(b -> b.fullAt(now, perSecond));
    }
    if (!buckets.computeIfAbsent(ip, k -> new Bucket(perSecond, now)).take(now, perSecond)) {
      throw new ConfigException(Kind.LIMITED, "too many publishes from " + ip + ": at most " + perSecond
          + " per second (nacre config publishesPerSecondPerIp); retry later");
    }
  }

  private static final class Bucket {
    private double tokens;
    private long at;

    Bucket(int perSecond, long now) {
      this.tokens = perSecond;
      this.at = now;
    }

    synchronized boolean take(long now, int perSecond) {
      refill(now, perSecond);
      if (tokens < 1) {
        return false;
      }
      tokens -= 1;
      return true;
    }

    synchronized boolean fullAt(long now, int perSecond) {
      refill(now, perSecond);
      return tokens >= perSecond;
    }

    private void refill(long now, int perSecond) {
      if (now > at) {
        tokens = Math.min(perSecond, tokens + (now - at) * perSecond / 1000.0);
        at = now;
      }
    }
  }
}
