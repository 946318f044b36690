package dev.nacre.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The configuration service's settings, validated.
 *
 * @param maxContentBytes largest content (UTF-8 bytes) a publish may carry. Nacos' default is 10
 *     MiB; Nacre's is 3 MiB because a Raft entry carries the whole content and Ratis' leader
 *     refuses to send an entry larger than {@code raft.server.log.appender.buffer.byte-limit}
 *     (4 MiB by default, not raised by Nacre): a larger publish would be committed by nobody and
 *     stall the leader's appender. 3 MiB leaves room for the rest of the operation. The client
 *     ports bound it too: gRPC messages to 10 MiB, HTTP bodies to {@code nacre.http.max-body-bytes}
 *     (1 MiB by default).
 * @param historyRetention how long revisions are kept (Nacos: 30 days)
 * @param maxListenersPerClient keys one client (connection or long poll) may listen to. Nacos
 *     bounds nothing; 10,000 is far above what an application listens to (tens to hundreds) and
 *     stops one misbehaving client from filling the member's memory.
 * @param maxListeners listened keys on this member over all clients: 1,000,000 entries of about
 *     200 bytes is ~200 MB of heap at most, which a member's default heap holds beside the rest.
 * @param publishesPerSecondPerIp publishes allowed per second from one source address; 0: no limit
 *     (Nacos has none by default)
 */
public record ConfigSettings(int maxContentBytes, Duration historyRetention, int maxListenersPerClient,
    int maxListeners, int publishesPerSecondPerIp) {
  public static final int DEFAULT_MAX_CONTENT_BYTES = 3 << 20;
  public static final Duration DEFAULT_HISTORY_RETENTION = Duration.ofDays(30);
  public static final int DEFAULT_MAX_LISTENERS_PER_CLIENT = 10_000;
  public static final int DEFAULT_MAX_LISTENERS = 1_000_000;

  public ConfigSettings {
    Objects.requireNonNull(historyRetention, "historyRetention");
    if (maxContentBytes < 1 || maxListenersPerClient < 1 || maxListeners < 1 || publishesPerSecondPerIp < 0) {
      throw new IllegalArgumentException("config limits must be positive (publishesPerSecondPerIp: 0 for none), got "
          + "maxContentBytes=" + maxContentBytes + ", maxListenersPerClient=" + maxListenersPerClient
          + ", maxListeners=" + maxListeners + ", publishesPerSecondPerIp=" + publishesPerSecondPerIp);
    }
    if (historyRetention.isNegative() || historyRetention.isZero()) {
      throw new IllegalArgumentException("historyRetention must be positive, got " + historyRetention);
    }
  }

  public static ConfigSettings defaults() {
    return new ConfigSettings(DEFAULT_MAX_CONTENT_BYTES, DEFAULT_HISTORY_RETENTION, DEFAULT_MAX_LISTENERS_PER_CLIENT,
        DEFAULT_MAX_LISTENERS, 0);
  }
}
