package dev.nacre.naming.api;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the naming module, with Nacos' defaults. Immutable; the constructor rejects values
 * that would make the registry misbehave (zero periods, delete before unhealthy, ...).
 *
 * @param heartbeatScanPeriod how often the owner scans ephemeral instances for missed beats
 * @param defaultBeatInterval beat interval told to clients without {@code preserved.heart.beat.interval}
 * @param defaultHeartBeatTimeout silence after which an ephemeral instance turns unhealthy
 * @param defaultIpDeleteTimeout silence after which an ephemeral instance is removed
 * @param probePeriod how often persistent instances are probed
 * @param probeTimeout connect (and HTTP read) timeout of one probe
 * @param probeThreads bound on concurrent probes
 * @param metadataMaxBytes bound on an instance's or service's metadata, as UTF-8 JSON
 * @param serviceNameMaxLength bound on service names (group, cluster and namespace ids have Nacos'
 *     own tighter bounds)
 * @param cpWriteTimeout how long a CP write or linearizable read may wait for the replicated log
 * @param overrideRetention how long an operator's override of an ephemeral instance outlives the
 *     instance when it goes without being deregistered (Nacos keeps its instance metadata 60 s)
 * @param limits how much one service and one namespace may hold
 */
public record NamingConfig(
    Duration heartbeatScanPeriod,
    Duration defaultBeatInterval,
    Duration defaultHeartBeatTimeout,
    Duration defaultIpDeleteTimeout,
    Duration probePeriod,
    Duration probeTimeout,
    int probeThreads,
    int metadataMaxBytes,
    int serviceNameMaxLength,
    Duration cpWriteTimeout,
    Duration overrideRetention,
    Limits limits) {

  /**
   * Bounds that keep one client or team from filling a node's memory: a registration beyond them
   * is refused with a message naming the setting (updates of what is held are never refused).
   *
   * @param maxInstancesPerService instances (both kinds) one service may hold
   * @param maxServicesPerNamespace services one namespace may hold
   */
  public record Limits(int maxInstancesPerService, int maxServicesPerNamespace) {
    public Limits {
      if (maxInstancesPerService < 1 || maxServicesPerNamespace < 1) {
        throw new IllegalArgumentException("registry limits must be positive: " + maxInstancesPerService
            + " instances per service, " + maxServicesPerNamespace + " services per namespace");
      }
    }

    /** Far above what the benchmarks hold (10,000 instances in one service, 10,000 services). */
    public static Limits defaults() {
      return new Limits(100_000, 100_000);
    }
  }

  public NamingConfig {
    positive(overrideRetention, "overrideRetention");
    Objects.requireNonNull(limits, "limits");
    positive(heartbeatScanPeriod, "heartbeatScanPeriod");
    positive(defaultBeatInterval, "defaultBeatInterval");
    positive(defaultHeartBeatTimeout, "defaultHeartBeatTimeout");
    positive(defaultIpDeleteTimeout, "defaultIpDeleteTimeout");
    positive(probePeriod, "probePeriod");
    positive(probeTimeout, "probeTimeout");
    positive(cpWriteTimeout, "cpWriteTimeout");
    if (defaultIpDeleteTimeout.compareTo(defaultHeartBeatTimeout) < 0) {
      throw new IllegalArgumentException(
          "defaultIpDeleteTimeout (" + defaultIpDeleteTimeout + ") must not be shorter than"
              + " defaultHeartBeatTimeout (" + defaultHeartBeatTimeout + ")");
    }
    if (probeThreads < 1) {
      throw new IllegalArgumentException("probeThreads must be at least 1, was " + probeThreads);
    }
    if (metadataMaxBytes < 2) {
      throw new IllegalArgumentException("metadataMaxBytes must be at least 2, was " + metadataMaxBytes);
    }
    if (serviceNameMaxLength < 1) {
      throw new IllegalArgumentException(
          "serviceNameMaxLength must be at least 1, was " + serviceNameMaxLength);
    }
  }

  /** Nacos' defaults: scan and beat every 5 s, unhealthy after 15 s, removed after 30 s. */
  public static NamingConfig defaults() {
    return new NamingConfig(
        Duration.ofSeconds(5),
        Duration.ofSeconds(5),
        Duration.ofSeconds(15),
        Duration.ofSeconds(30),
        Duration.ofSeconds(5),
        Duration.ofMillis(500),
        4,
        16 * 1024,
        512,
        Duration.ofSeconds(3),
        Duration.ofSeconds(60),
        Limits.defaults());
  }

  public NamingConfig withCpWriteTimeout(Duration timeout) {
    return new NamingConfig(
        heartbeatScanPeriod, defaultBeatInterval, defaultHeartBeatTimeout, defaultIpDeleteTimeout,
        probePeriod, probeTimeout, probeThreads, metadataMaxBytes, serviceNameMaxLength, timeout,
        overrideRetention, limits);
  }

  public NamingConfig withLimits(Limits value) {
    return new NamingConfig(
        heartbeatScanPeriod, defaultBeatInterval, defaultHeartBeatTimeout, defaultIpDeleteTimeout,
        probePeriod, probeTimeout, probeThreads, metadataMaxBytes, serviceNameMaxLength, cpWriteTimeout,
        overrideRetention, value);
  }

  private static void positive(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException(name + " must be positive, was " + d);
    }
  }
}
