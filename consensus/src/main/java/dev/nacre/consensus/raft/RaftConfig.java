package dev.nacre.consensus.raft;

import dev.nacre.consensus.tls.TlsFiles;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.ratis.thirdparty.com.google.common.net.HostAndPort;

/**
 * Everything one member needs to join its Raft group, validated once. Build with {@link #builder}.
 *
 * @param groupId name of the group; every member must use the same one
 * @param selfId this member's peer id (unique per process, and per JVM in tests)
 * @param peers every member of the group, id to {@code host:port} of its Raft port, self included
 * @param storageDir folder for the Raft log, its metadata and snapshots (one per member)
 * @param electionTimeoutMin lower bound of the randomized follower timeout before an election
 * @param electionTimeoutMax upper bound of that timeout
 * @param requestTimeout bound within which a write or read barrier succeeds or fails
 * @param snapshotThreshold applied entries since the last snapshot that trigger a new one
 * @param logSegmentSizeBytes size at which a log segment is closed (only closed ones are purged)
 * @param clusterSecret secret shared by every member; when set, the Raft port speaks only mutual
 *     TLS with certificates derived from it (see {@code dev.nacre.consensus.tls.SecretDerivedTls}), so whoever lacks
 *     it can neither join, vote, append nor submit. {@code null} (or blank, normalized to
 *     {@code null}) means no authentication: for a single node or tests on loopback only
 * @param batchesInFlight Raft entries the leader keeps in flight; later operations (its own and those
 *     the other members forward to it) wait and share one
 * @param maxBatchOperations most operations in one entry
 * @param batchLinger how long the leader's next entry may wait for the writers of its last entry
 *     (and those waiting when it committed) to come back, and never more than four recent
 *     entries' round trips (less after lingers that ran out: see {@code internal.OperationBatcher});
 *     zero for never
 * @param tlsFiles an operator's certificates used on the Raft port instead of the secret-derived
 *     ones; {@code null} for those (needs a secret all the same: authentication stays on)
 * @param handlerThreads where the Raft port's handlers run (Ratis' own, and the leader's side of
 *     forwarded batches with its {@code forwardInterceptor}): see {@link HandlerThreads}
 * @param forwardInterceptor sees every batch another member forwards to this one while it leads;
 *     {@link ForwardInterceptor#NONE} by default
 */
public record RaftConfig(
    String groupId,
    String selfId,
    Map<String, String> peers,
    Path storageDir,
    Duration electionTimeoutMin,
    Duration electionTimeoutMax,
    Duration requestTimeout,
    long snapshotThreshold,
    long logSegmentSizeBytes,
    String clusterSecret,
    int batchesInFlight,
    int maxBatchOperations,
    Duration batchLinger,
    TlsFiles tlsFiles,
    HandlerThreads handlerThreads,
    ForwardInterceptor forwardInterceptor) {

  /** The threads that run the Raft port's handlers. */
  public enum HandlerThreads {
    /**
     * The threads that read the messages (the default): a thread hand-off less per message, worth
     * 12-16% of a replicated write's CPU (docs/PERFORMANCE.md). Right while nothing in a handler
     * waits on anything but this member's own disk.
     */
    TRANSPORT,
    /**
     * A pool, as Ratis does by default. Choose it when code that may block runs inside the
     * handlers (a {@link ForwardInterceptor} that waits, say, or code hooked into Ratis' server):
     * a transport thread serves many connections (in one JVM, those of every member), and holding
     * it would hold them all.
     */
    POOL
  }

  /**
   * The lowest timeouts measured stable on a 2-core box (load average 4-6, 32 concurrent writers for
   * 25 s: no leader change) that keep leader-kill-to-next-write under 1.5 s: 566-1308 ms over 20
   * kills. 500/1000 was as stable but its tail reached 1.86 s (pre-vote can cost a second timeout);
   * 300/600 lost leaders under load. Raise these if GC pauses near 400 ms cause leader churn.
   */
  public static final Duration DEFAULT_ELECTION_TIMEOUT_MIN = Duration.ofMillis(400);
  public static final Duration DEFAULT_ELECTION_TIMEOUT_MAX = Duration.ofMillis(800);
  /** Nacos' default for a CP write without quorum to fail. */
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(3);
  public static final long DEFAULT_SNAPSHOT_THRESHOLD = 10_000;
  public static final long DEFAULT_LOG_SEGMENT_SIZE_BYTES = 8L * 1024 * 1024;
  public static final int DEFAULT_BATCHES_IN_FLIGHT = 1;
  public static final int DEFAULT_MAX_BATCH_OPERATIONS = 256;
  /**
   * Measured with 8 official clients (docs/PERFORMANCE.md): on 3 nodes, 10 ms bounded by four round
   * trips took 1.3-1.5x the persistent registrations of 2.5 ms bounded by half a round trip, at
   * 0.63-0.78x the CPU per write, and a third fewer entries; on one node 1.1-1.5x at 0.6-0.85x. The
   * round-trip bound keeps the wait short where entries commit fast; writers that come back
   * seldom shorten it further.
   */
  public static final Duration DEFAULT_BATCH_LINGER = Duration.ofMillis(10);
  /** Shorter secrets are rejected: the secret is the only key to the cluster. */
  public static final int MIN_CLUSTER_SECRET_LENGTH = 16;

  public RaftConfig {
    requireText(groupId, "groupId");
    requireText(selfId, "selfId");
    Objects.requireNonNull(peers, "peers");
    Objects.requireNonNull(storageDir, "storageDir: set a folder of its own for this member");
    Objects.requireNonNull(electionTimeoutMin, "electionTimeoutMin");
    Objects.requireNonNull(electionTimeoutMax, "electionTimeoutMax");
    Objects.requireNonNull(requestTimeout, "requestTimeout");
    if (!peers.containsKey(selfId)) {
      throw new IllegalArgumentException(
          "selfId " + selfId + " is not among the peers " + peers.keySet() + "; list every member, self included");
    }
    peers.forEach(RaftConfig::hostAndPort);
    if (electionTimeoutMin.toMillis() < 100 || electionTimeoutMax.compareTo(electionTimeoutMin) <= 0) {
      throw new IllegalArgumentException(
          "election timeouts must satisfy 100 ms <= min < max, got " + electionTimeoutMin.toMillis()
              + "/" + electionTimeoutMax.toMillis() + " ms");
    }
    if (requestTimeout.compareTo(electionTimeoutMax) <= 0) {
      throw new IllegalArgumentException(
          "requestTimeout (" + requestTimeout.toMillis() + " ms) must exceed electionTimeoutMax ("
              + electionTimeoutMax.toMillis() + " ms), or writes fail during every election");
    }
    if (batchesInFlight < 1 || maxBatchOperations < 1) {
      throw new IllegalArgumentException("batchesInFlight and maxBatchOperations must be >= 1, got "
          + batchesInFlight + " and " + maxBatchOperations);
    }
    Objects.requireNonNull(batchLinger, "batchLinger");
    Objects.requireNonNull(handlerThreads, "handlerThreads");
    Objects.requireNonNull(forwardInterceptor, "forwardInterceptor");
    if (batchLinger.isNegative() || batchLinger.compareTo(requestTimeout) >= 0) {
      throw new IllegalArgumentException("batchLinger must be >= 0 and below requestTimeout, got "
          + batchLinger.toMillis() + " ms");
    }
    if (snapshotThreshold < 1 || logSegmentSizeBytes < 1024) {
      throw new IllegalArgumentException(
          "snapshotThreshold must be >= 1 and logSegmentSizeBytes >= 1024, got " + snapshotThreshold
              + " and " + logSegmentSizeBytes);
    }
    if (clusterSecret != null && clusterSecret.isBlank()) {
      clusterSecret = null;
    }
    if (tlsFiles != null && clusterSecret == null) {
      throw new IllegalArgumentException("tlsFiles are used only with a clusterSecret (authentication on)");
    }
    if (clusterSecret != null && clusterSecret.length() < MIN_CLUSTER_SECRET_LENGTH) {
      throw new IllegalArgumentException("clusterSecret must have at least " + MIN_CLUSTER_SECRET_LENGTH
          + " characters, got " + clusterSecret.length() + "; use a long random value, the same on every member");
    }
    peers = Collections.unmodifiableMap(new LinkedHashMap<>(peers));
    storageDir = storageDir.toAbsolutePath();
  }

  /** Whether the Raft port requires the cluster secret (mutual TLS derived from it). */
  public boolean authenticated() {
    return clusterSecret != null;
  }

  /** The host this member is reached at by the others, as listed in {@link #peers()}. */
  public String selfHost() {
    return hostAndPort(selfId, peers.get(selfId)).getHost();
  }

  /** Like the record's, but never shows the secret: this is logged at start. */
  @Override
  public String toString() {
    return "RaftConfig[groupId=" + groupId + ", selfId=" + selfId + ", peers=" + peers + ", storageDir="
        + storageDir + ", electionTimeout=" + electionTimeoutMin.toMillis() + "-" + electionTimeoutMax.toMillis()
        + " ms, requestTimeout=" + requestTimeout.toMillis() + " ms, snapshotThreshold=" + snapshotThreshold
        + ", logSegmentSizeBytes=" + logSegmentSizeBytes + ", batchesInFlight=" + batchesInFlight
        + ", maxBatchOperations=" + maxBatchOperations + ", batchLinger=" + batchLinger.toNanos() / 1000 + " us"
        + ", clusterSecret="
        + (authenticated() ? "(set: mutual TLS)" : "(none: no authentication)")
        + (tlsFiles == null ? "" : ", tlsFiles=" + tlsFiles)
        + (handlerThreads == HandlerThreads.TRANSPORT ? "" : ", handlerThreads=" + handlerThreads)
        + (forwardInterceptor == ForwardInterceptor.NONE ? "" : ", forwardInterceptor=" + forwardInterceptor) + "]";
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The port this member's Raft server listens on. */
  public int selfPort() {
    return hostAndPort(selfId, peers.get(selfId)).getPort();
  }

  /** Members needed for a quorum. */
  public int quorumSize() {
    return quorumOf(peers.size());
  }

  /** How many of {@code members} voting members make a majority. */
  public static int quorumOf(int members) {
    return members / 2 + 1;
  }

  /** A peer's {@code host:port} (an IPv6 host in brackets), or why it is not one. */
  private static HostAndPort hostAndPort(String id, String address) {
    try {
      HostAndPort parsed = HostAndPort.fromString(address == null ? "" : address.strip());
      if (parsed.hasPort() && !parsed.getHost().isEmpty() && parsed.getPort() > 0) {
        return parsed;
      }
    } catch (IllegalArgumentException e) {
      // reported below
    }
    throw new IllegalArgumentException("peer " + id + " has address '" + address + "'; expected host:port");
  }

  private static void requireText(String value, String name) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + " must not be blank");
    }
  }

  /** Mutable builder with Nacos-like defaults; {@link #build} validates. */
  public static final class Builder {
    private String groupId = "nacre-naming";
    private String selfId;
    private final Map<String, String> peers = new LinkedHashMap<>();
    private Path storageDir;
    private Duration electionTimeoutMin = DEFAULT_ELECTION_TIMEOUT_MIN;
    private Duration electionTimeoutMax = DEFAULT_ELECTION_TIMEOUT_MAX;
    private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
    private long snapshotThreshold = DEFAULT_SNAPSHOT_THRESHOLD;
    private long logSegmentSizeBytes = DEFAULT_LOG_SEGMENT_SIZE_BYTES;
    private int batchesInFlight = DEFAULT_BATCHES_IN_FLIGHT;
    private int maxBatchOperations = DEFAULT_MAX_BATCH_OPERATIONS;
    private Duration batchLinger = DEFAULT_BATCH_LINGER;
    private HandlerThreads handlerThreads = HandlerThreads.TRANSPORT;
    private ForwardInterceptor forwardInterceptor = ForwardInterceptor.NONE;
    private String clusterSecret;
    private TlsFiles tlsFiles;

    private Builder() {}

    public Builder groupId(String groupId) {
      this.groupId = groupId;
      return this;
    }

    public Builder selfId(String selfId) {
      this.selfId = selfId;
      return this;
    }

    public Builder peer(String id, String hostPort) {
      this.peers.put(id, hostPort);
      return this;
    }

    public Builder peers(Map<String, String> peers) {
      this.peers.clear();
      this.peers.putAll(peers);
      return this;
    }

    public Builder storageDir(Path storageDir) {
      this.storageDir = storageDir;
      return this;
    }

    public Builder electionTimeout(Duration min, Duration max) {
      this.electionTimeoutMin = min;
      this.electionTimeoutMax = max;
      return this;
    }

    public Builder requestTimeout(Duration requestTimeout) {
      this.requestTimeout = requestTimeout;
      return this;
    }

    public Builder snapshotThreshold(long entries) {
      this.snapshotThreshold = entries;
      return this;
    }

    public Builder logSegmentSizeBytes(long bytes) {
      this.logSegmentSizeBytes = bytes;
      return this;
    }

    public Builder batchesInFlight(int batches) {
      this.batchesInFlight = batches;
      return this;
    }

    public Builder maxBatchOperations(int operations) {
      this.maxBatchOperations = operations;
      return this;
    }

    public Builder batchLinger(Duration linger) {
      this.batchLinger = linger;
      return this;
    }

    /** The secret every member shares; {@code null} or blank turns authentication off. */
    public Builder clusterSecret(String clusterSecret) {
      this.clusterSecret = clusterSecret;
      return this;
    }

    /** An operator's certificates for the Raft port instead of the secret-derived ones. */
    public Builder tlsFiles(TlsFiles tlsFiles) {
      this.tlsFiles = tlsFiles;
      return this;
    }

    /** Where the Raft port's handlers run; {@link HandlerThreads#TRANSPORT} by default. */
    public Builder handlerThreads(HandlerThreads threads) {
      this.handlerThreads = threads;
      return this;
    }

    /** What sees each batch forwarded to this member while it leads; none by default. */
    public Builder forwardInterceptor(ForwardInterceptor interceptor) {
      this.forwardInterceptor = interceptor;
      return this;
    }

    public RaftConfig build() {
      return new RaftConfig(
          groupId, selfId, peers, storageDir, electionTimeoutMin, electionTimeoutMax, requestTimeout,
          snapshotThreshold, logSegmentSizeBytes, clusterSecret, batchesInFlight, maxBatchOperations, batchLinger,
          tlsFiles, handlerThreads, forwardInterceptor);
    }
  }
}
