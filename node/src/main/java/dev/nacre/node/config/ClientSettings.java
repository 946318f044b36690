package dev.nacre.node.config;

import java.time.Duration;

/**
 * The Nacos 2.x client gRPC port (P+1000), with Nacos' defaults.
 *
 * @param idleBeforeDetection silence on a connection after which the node asks the client whether
 *     it is still there (Nacos: 20 s)
 * @param detectionTimeout how long the client has to answer; then the connection is closed and its
 *     ephemeral instances and subscriptions removed (Nacos: 5 s)
 * @param metadataMaxLength bound on an instance's metadata over gRPC, counted as Nacos counts it
 *     (characters of keys and values) (Nacos: 1024)
 * @param writesPerSecond registrations and removals one connection may send per second (bursts
 *     of up to a second's worth pass); beyond, a write is answered Nacos' over-threshold error.
 *     0: no limit (as Nacos, whose TPS control is off by default)
 * @param maxConnectionsPerIp client connections one IP address may hold open; a connection beyond
 *     is answered Nacos' over-threshold error on every request and never set up. 0: no limit
 *     (as Nacos, whose connection control is off by default)
 * @param rebalancePeriod how often a cluster member holding far more than its share of client
 *     connections (after a rolling restart, say) asks some of them to move to the members holding
 *     the fewest; zero: never (Nacos has no such spreading)
 * @param ioThreads the port's transport threads, which also run its request handlers (default
 *     {@link #defaultIoThreads()})
 */
public record ClientSettings(Duration idleBeforeDetection, Duration detectionTimeout, int metadataMaxLength,
    int writesPerSecond, int maxConnectionsPerIp, Duration rebalancePeriod, int ioThreads) {

  public ClientSettings {
    if (writesPerSecond < 0 || maxConnectionsPerIp < 0) {
      throw new IllegalArgumentException("client limits must be 0 (no limit) or positive: writesPerSecond "
          + writesPerSecond + ", maxConnectionsPerIp " + maxConnectionsPerIp);
    }
    if (ioThreads < 1) {
      throw new IllegalArgumentException("the client port needs at least one I/O thread, not " + ioThreads);
    }
  }

  public static ClientSettings defaults() {
    return new ClientSettings(Duration.ofSeconds(20), Duration.ofSeconds(5), 1024, 0, 0, Duration.ofSeconds(30),
        defaultIoThreads());
  }

  /**
   * Half the processors, at least one. The handlers never block, so a thread per two processors
   * keeps up, and it leaves the rest to Raft, replication and the collector. One thread fewer is
   * also one fewer to wake: each wake-up of a transport thread that went idle serves only the
   * requests that arrived since, and on two cores shared with other work two threads took a third
   * more CPU per request than one (docs/PERFORMANCE.md, "one client-port thread per two processors").
   */
  public static int defaultIoThreads() {
    return Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
  }

  /** How often idle connections are looked for: Nacos' 3 s, or more often for short idle bounds. */
  public Duration detectionScanPeriod() {
    Duration quarter = idleBeforeDetection.dividedBy(4);
    Duration nacos = Duration.ofSeconds(3);
    return quarter.compareTo(nacos) < 0 ? quarter.plusMillis(1) : nacos;
  }
}
