package dev.nacre.consensus.distro;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the Distro replicator. Immutable and validated; {@link #defaults()} holds Nacos'
 * numbers where Nacos has one.
 *
 * @param maxBatchSize a peer's batch is sent once this many keys are pending (Nacos: 1000)
 * @param flushDelay a peer's batch is sent this long after its first pending key (Nacos: 200 ms)
 * @param leadingEdgeFlush when a peer is idle (no batch in flight, none sent within the last
 *     {@code flushDelay}, not backing off) a change is sent to it at once instead of waiting
 *     {@code flushDelay}; while changes keep coming, batches still leave at most once per
 *     {@code flushDelay} (or at {@code maxBatchSize} keys). Nacos waits always; on by default
 *     because a lone change then reaches peers a flush delay sooner
 * @param verifyInterval how often each member sends each peer a digest of its records (5 s)
 * @param retryBackoffBase delay before the first retry of a failed batch; doubles per failure
 * @param retryBackoffMax longest delay between retries (Nacos retries every 3 s)
 * @param requestTimeout a batch not answered within this is failed (3 s)
 * @param maxPendingKeysPerPeer past this many pending keys the peer's queue is dropped and the
 *     peer is resynchronised through verify instead, so an unreachable peer costs bounded memory
 * @param ownerGracePeriod records of a member that went DOWN are removed this long afterwards,
 *     unless it comes back first (30 s, like an ephemeral instance's delete timeout)
 * @param tombstoneRetention how long a deletion is remembered, so older copies still in flight
 *     cannot bring the record back
 * @param initialLoadTimeout a starting member that could not load a snapshot from any peer by
 *     then reports ready with what it has, and verify fills it in later
 * @param tickInterval how often the replicator's thread advances its timers: verify rounds,
 *     timeouts, retries of pulls, grace periods, tombstones (100 ms). A batch's flush is timed on
 *     its own, to the millisecond, and the start's load every 10 ms at most
 * @param snapshotTimeout a snapshot (initial load, verify repair) not received within this is
 *     failed (30 s: a million records take seconds to stream); a peer that goes DOWN meanwhile
 *     fails it at once
 */
public record DistroConfig(
    int maxBatchSize,
    Duration flushDelay,
    boolean leadingEdgeFlush,
    Duration verifyInterval,
    Duration retryBackoffBase,
    Duration retryBackoffMax,
    Duration requestTimeout,
    int maxPendingKeysPerPeer,
    Duration ownerGracePeriod,
    Duration tombstoneRetention,
    Duration initialLoadTimeout,
    Duration tickInterval,
    Duration snapshotTimeout) {

  public DistroConfig {
    positive("maxBatchSize", maxBatchSize);
    positive("flushDelay", flushDelay);
    positive("verifyInterval", verifyInterval);
    positive("retryBackoffBase", retryBackoffBase);
    positive("retryBackoffMax", retryBackoffMax);
    positive("requestTimeout", requestTimeout);
    positive("maxPendingKeysPerPeer", maxPendingKeysPerPeer);
    positive("ownerGracePeriod", ownerGracePeriod);
    positive("tombstoneRetention", tombstoneRetention);
    positive("initialLoadTimeout", initialLoadTimeout);
    positive("tickInterval", tickInterval);
    positive("snapshotTimeout", snapshotTimeout);
    if (retryBackoffMax.compareTo(retryBackoffBase) < 0) {
      throw new IllegalArgumentException("distro retryBackoffMax (" + retryBackoffMax
          + ") must not be shorter than retryBackoffBase (" + retryBackoffBase + ")");
    }
    if (maxPendingKeysPerPeer < maxBatchSize) {
      throw new IllegalArgumentException("distro maxPendingKeysPerPeer (" + maxPendingKeysPerPeer
          + ") must be at least maxBatchSize (" + maxBatchSize + ")");
    }
  }

  /** 1000 keys or 200 ms per batch (a change to an idle peer at once), verify every 5 s, retries 100 ms doubling to 3 s, 3 s timeout,
   * 100,000 pending keys per peer, 30 s owner grace, 60 s tombstones, 30 s load timeout, 100 ms tick,
   * 30 s per snapshot. */
  public static DistroConfig defaults() {
    return new DistroConfig(
        1000,
        Duration.ofMillis(200),
        true,
        Duration.ofSeconds(5),
        Duration.ofMillis(100),
        Duration.ofSeconds(3),
        Duration.ofSeconds(3),
        100_000,
        Duration.ofSeconds(30),
        Duration.ofSeconds(60),
        Duration.ofSeconds(30),
        Duration.ofMillis(100),
        Duration.ofSeconds(30));
  }

  /** A builder that starts from {@link #defaults()}. */
  public static Builder builder() {
    return new Builder(defaults());
  }

  /** A builder that starts from these settings. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  private static void positive(String name, Duration d) {
    Objects.requireNonNull(d, name);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException("distro " + name + " must be positive, got " + d);
    }
  }

  private static void positive(String name, int n) {
    if (n < 1) {
      throw new IllegalArgumentException("distro " + name + " must be positive, got " + n);
    }
  }

  /** Changes some settings; {@link #build()} validates. */
  public static final class Builder {
    private int maxBatchSize;
    private Duration flushDelay;
    private boolean leadingEdgeFlush;
    private Duration verifyInterval;
    private Duration retryBackoffBase;
    private Duration retryBackoffMax;
    private Duration requestTimeout;
    private int maxPendingKeysPerPeer;
    private Duration ownerGracePeriod;
    private Duration tombstoneRetention;
    private Duration initialLoadTimeout;
    private Duration tickInterval;
    private Duration snapshotTimeout;

    private Builder(DistroConfig c) {
      maxBatchSize = c.maxBatchSize;
      flushDelay = c.flushDelay;
      leadingEdgeFlush = c.leadingEdgeFlush;
      verifyInterval = c.verifyInterval;
      retryBackoffBase = c.retryBackoffBase;
      retryBackoffMax = c.retryBackoffMax;
      requestTimeout = c.requestTimeout;
      maxPendingKeysPerPeer = c.maxPendingKeysPerPeer;
      ownerGracePeriod = c.ownerGracePeriod;
      tombstoneRetention = c.tombstoneRetention;
      initialLoadTimeout = c.initialLoadTimeout;
      tickInterval = c.tickInterval;
      snapshotTimeout = c.snapshotTimeout;
    }

    public Builder maxBatchSize(int v) {
      maxBatchSize = v;
      return this;
    }

    public Builder flushDelay(Duration v) {
      flushDelay = v;
      return this;
    }

    public Builder leadingEdgeFlush(boolean v) {
      leadingEdgeFlush = v;
      return this;
    }

    public Builder verifyInterval(Duration v) {
      verifyInterval = v;
      return this;
    }

    public Builder retryBackoff(Duration base, Duration max) {
      retryBackoffBase = base;
      retryBackoffMax = max;
      return this;
    }

    public Builder requestTimeout(Duration v) {
      requestTimeout = v;
      return this;
    }

    public Builder maxPendingKeysPerPeer(int v) {
      maxPendingKeysPerPeer = v;
      return this;
    }

    public Builder ownerGracePeriod(Duration v) {
      ownerGracePeriod = v;
      return this;
    }

    public Builder tombstoneRetention(Duration v) {
      tombstoneRetention = v;
      return this;
    }

    public Builder initialLoadTimeout(Duration v) {
      initialLoadTimeout = v;
      return this;
    }

    public Builder tickInterval(Duration v) {
      tickInterval = v;
      return this;
    }

    public Builder snapshotTimeout(Duration v) {
      snapshotTimeout = v;
      return this;
    }

    public DistroConfig build() {
      return new DistroConfig(maxBatchSize, flushDelay, leadingEdgeFlush, verifyInterval,
          retryBackoffBase, retryBackoffMax, requestTimeout, maxPendingKeysPerPeer, ownerGracePeriod,
          tombstoneRetention, initialLoadTimeout, tickInterval, snapshotTimeout);
    }
  }
}
