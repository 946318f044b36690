package dev.nacre.node.config;

import dev.nacre.config.ConfigSettings;
import dev.nacre.consensus.distro.DistroConfig;
import dev.nacre.consensus.raft.RaftConfig;
import dev.nacre.consensus.tls.TlsFiles;
import dev.nacre.naming.api.NamingConfig;
import dev.nacre.naming.push.PushConfig;
import dev.nacre.node.http.HttpLimits;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

/**
 * Everything a node is configured with, read once from {@code nacre.*} settings (a properties
 * file, {@code -D} flags, command-line options) with Nacos' defaults, validated, and logged at
 * start. Unknown {@code nacre.*} keys are refused so that a typo does not go unnoticed.
 *
 * @param host address that members and clients use to reach this node
 * @param bind address the servers listen on
 * @param port main (HTTP) port P; Raft listens on P-1000
 * @param members every member's {@code host:port} (main port), self included; one entry = standalone
 * @param push how changes are pushed to subscribed clients
 * @param configs the configuration service's limits and history retention
 * @param auth client authentication (Nacos' {@code nacos.core.auth.*} settings)
 */
public record NodeConfig(
    String host,
    String bind,
    int port,
    Path dataDir,
    List<MemberAddress> members,
    HttpLimits http,
    Duration cpTimeout,
    Duration electionTimeoutMin,
    Duration electionTimeoutMax,
    long snapshotThreshold,
    long logSegmentSizeBytes,
    int raftBatchesInFlight,
    int raftMaxBatchOperations,
    Duration raftBatchLinger,
    NamingConfig naming,
    ConfigSettings configs,
    ClusterSettings cluster,
    ClientSettings client,
    PushConfig push,
    boolean udpPushToClientIp,
    AuthSettings auth) {

  public static final String HOST = "nacre.host";
  public static final String BIND = "nacre.bind";
  public static final String PORT = "nacre.port";
  public static final String DATA_DIR = "nacre.data.dir";
  public static final String MEMBERS = "nacre.members";
  public static final String HTTP_MAX_BODY = "nacre.http.max-body-bytes";
  public static final String HTTP_THREADS = "nacre.http.worker-threads";
  public static final String HTTP_IDLE_TIMEOUT = "nacre.http.idle-timeout-ms";
  public static final String HTTP_MAX_CONNECTIONS = "nacre.http.max-connections";
  public static final String HTTP_MAX_CONNECTIONS_PER_IP = "nacre.http.max-connections-per-ip";
  public static final String HTTP_WRITES_PER_SECOND_PER_IP = "nacre.http.writes-per-second-per-ip";
  public static final String PEER_MAX_CALLS = "nacre.peer.max-concurrent-calls";
  public static final String MAX_INSTANCES_PER_SERVICE = "nacre.naming.max-instances-per-service";
  public static final String MAX_SERVICES_PER_NAMESPACE = "nacre.naming.max-services-per-namespace";
  public static final String CP_TIMEOUT = "nacre.cp.timeout-ms";
  public static final String ELECTION_MIN = "nacre.raft.election-timeout-min-ms";
  public static final String ELECTION_MAX = "nacre.raft.election-timeout-max-ms";
  public static final String SNAPSHOT_THRESHOLD = "nacre.raft.snapshot-threshold";
  /** Size at which a Raft log segment is closed; only closed segments are purged after a snapshot. */
  public static final String LOG_SEGMENT_SIZE = "nacre.raft.log-segment-bytes";
  /** CP writes of this node in the Raft pipeline at once, each a batch of those that queued meanwhile. */
  public static final String RAFT_BATCHES_IN_FLIGHT = "nacre.raft.batches-in-flight";
  public static final String RAFT_MAX_BATCH_OPERATIONS = "nacre.raft.max-batch-operations";
  public static final String RAFT_BATCH_LINGER = "nacre.raft.batch-linger-us";
  public static final String HEARTBEAT_SCAN = "nacre.naming.heartbeat.scan-ms";
  public static final String BEAT_INTERVAL = "nacre.naming.beat-interval-ms";
  public static final String HEARTBEAT_TIMEOUT = "nacre.naming.heartbeat-timeout-ms";
  public static final String IP_DELETE_TIMEOUT = "nacre.naming.ip-delete-timeout-ms";
  public static final String PROBE_PERIOD = "nacre.naming.probe.period-ms";
  public static final String PROBE_TIMEOUT = "nacre.naming.probe.timeout-ms";
  public static final String METADATA_MAX = "nacre.naming.metadata.max-bytes";
  public static final String OVERRIDE_RETENTION = "nacre.naming.override-retention-ms";
  public static final String CONFIG_MAX_CONTENT = "nacre.config.max-content-bytes";
  public static final String CONFIG_HISTORY_RETENTION = "nacre.config.history-retention-days";
  public static final String CONFIG_MAX_LISTENERS_PER_CLIENT = "nacre.config.max-listeners-per-client";
  public static final String CONFIG_MAX_LISTENERS = "nacre.config.max-listeners";
  public static final String CONFIG_PUBLISHES_PER_SECOND_PER_IP = "nacre.config.publishes-per-second-per-ip";
  public static final String SECRET = "nacre.cluster.secret";
  /** Set by {@code --cluster-conf}: the file the members were read from, kept up to date. */
  public static final String CLUSTER_CONF = "nacre.cluster.conf-file";
  public static final String TLS_CERT = "nacre.tls.cert";
  public static final String TLS_KEY = "nacre.tls.key";
  public static final String TLS_CA = "nacre.tls.ca";
  public static final String PING_PERIOD = "nacre.cluster.ping-ms";
  public static final String PINGS_TO_DOWN = "nacre.cluster.failed-pings-to-down";
  /** How long a starting member looks for a live peer to load ephemeral data from (default 10000). */
  public static final String PEER_WAIT_AT_START = "nacre.cluster.peer-wait-at-start-ms";
  public static final String DISTRO_FLUSH = "nacre.distro.flush-ms";
  /** true: a change to an idle peer leaves at once, not flush-ms later (Nacos: always waits). */
  public static final String DISTRO_LEADING_EDGE = "nacre.distro.leading-edge-flush";
  public static final String DISTRO_BATCH = "nacre.distro.batch-size";
  public static final String DISTRO_VERIFY = "nacre.distro.verify-ms";
  public static final String DISTRO_GRACE = "nacre.distro.owner-grace-ms";
  public static final String CLIENT_IDLE = "nacre.client.idle-before-detection-ms";
  public static final String CLIENT_DETECTION_TIMEOUT = "nacre.client.detection-timeout-ms";
  public static final String CLIENT_METADATA_MAX = "nacre.client.metadata.max-length";
  public static final String CLIENT_WRITES_PER_SECOND = "nacre.client.writes-per-second";
  public static final String CLIENT_MAX_CONNECTIONS_PER_IP = "nacre.client.max-connections-per-ip";
  public static final String CLIENT_REBALANCE_PERIOD = "nacre.client.rebalance-period-ms";
  public static final String CLIENT_IO_THREADS = "nacre.client.io-threads";
  public static final String PUSH_DELAY = "nacre.naming.push.delay-ms";
  public static final String PUSH_ACK_TIMEOUT = "nacre.naming.push.ack-timeout-ms";
  public static final String PUSH_RETRY = "nacre.naming.push.retry-ms";
  public static final String PUSH_MAX_RETRY = "nacre.naming.push.max-retry-ms";
  public static final String PUSH_DROP_AFTER = "nacre.naming.push.drop-after-ms";
  public static final String PUSH_UDP_LEASE = "nacre.naming.push.udp-lease-ms";
  public static final String PUSH_UDP_TO_CLIENT_IP = "nacre.naming.push.udp-to-client-ip";

  public NodeConfig {
    members = List.copyOf(members);
    if (members.size() > 1 && cluster.secret().length() < 16) {
      throw new IllegalArgumentException(SECRET + " must be set (16 characters or more, the same on every member)"
          + " when " + MEMBERS + " lists other members; scripts/cluster.sh generates one");
    }
    if (!members.contains(new MemberAddress(host, port))) {
      throw new IllegalArgumentException(MEMBERS + " " + members + " does not list this node ("
          + new MemberAddress(host, port) + "); list every member, this one included, as host:port");
    }
  }

  /** True when other members are listed. */
  public boolean clustered() {
    return members.size() > 1;
  }

  /** The configured members other than this node. */
  public List<MemberAddress> peers() {
    return members.stream().filter(m -> !m.equals(self())).toList();
  }

  /** {@code host:port} of this node, also its member id. */
  public String address() {
    return self().toString();
  }

  /** This node as a member: its host, main port and the ports derived from it. */
  public MemberAddress self() {
    return new MemberAddress(host, port);
  }

  public int raftPort() {
    return self().raftPort();
  }

  /** Port of the Nacos 2.x client gRPC protocol: P+1000, as every Nacos client derives it. */
  public int clientGrpcPort() {
    return self().clientGrpcPort();
  }

  /** All three certificate settings, or none (the secret-derived certificates). */
  private static Optional<TlsFiles> tlsFiles(Settings s) {
    String cert = s.string(TLS_CERT, "");
    String key = s.string(TLS_KEY, "");
    String ca = s.string(TLS_CA, "");
    if (cert.isEmpty() && key.isEmpty() && ca.isEmpty()) {
      return Optional.empty();
    }
    if (cert.isEmpty() || key.isEmpty() || ca.isEmpty()) {
      throw new IllegalArgumentException(TLS_CERT + ", " + TLS_KEY + " and " + TLS_CA
          + " go together: set all three (PEM files) or none (certificates derived from " + SECRET + ")");
    }
    try {
      return Optional.of(new TlsFiles(Path.of(cert), Path.of(key), Path.of(ca)));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(TLS_CERT + "/" + TLS_KEY + "/" + TLS_CA + ": " + e.getMessage(), e);
    }
  }

  /** Reads and validates settings; throws {@link IllegalArgumentException} naming the bad key. */
  public static NodeConfig from(Properties properties) {
    Settings s = new Settings(properties);
    String bind = s.string(BIND, "127.0.0.1");
    String host = s.string(HOST, bind.equals("0.0.0.0") || bind.equals("::") ? "127.0.0.1" : bind);
    int port = s.integer(PORT, 8848, 1001, 64534);
    Path dataDir = Path.of(s.string(DATA_DIR, "data"));
    List<MemberAddress> members = parseMembers(s.string(MEMBERS, new MemberAddress(host, port).toString()));
    NamingConfig defaults = NamingConfig.defaults();
    Duration cpTimeout = millis(s, CP_TIMEOUT, defaults.cpWriteTimeout());
    NamingConfig naming = new NamingConfig(
        millis(s, HEARTBEAT_SCAN, defaults.heartbeatScanPeriod()),
        millis(s, BEAT_INTERVAL, defaults.defaultBeatInterval()),
        millis(s, HEARTBEAT_TIMEOUT, defaults.defaultHeartBeatTimeout()),
        millis(s, IP_DELETE_TIMEOUT, defaults.defaultIpDeleteTimeout()),
        millis(s, PROBE_PERIOD, defaults.probePeriod()),
        millis(s, PROBE_TIMEOUT, defaults.probeTimeout()),
        defaults.probeThreads(),
        s.integer(METADATA_MAX, defaults.metadataMaxBytes(), 2, 1 << 20),
        defaults.serviceNameMaxLength(),
        cpTimeout,
        millis(s, OVERRIDE_RETENTION, defaults.overrideRetention()),
        new NamingConfig.Limits(
            s.integer(MAX_INSTANCES_PER_SERVICE, defaults.limits().maxInstancesPerService(), 1, Integer.MAX_VALUE),
            s.integer(MAX_SERVICES_PER_NAMESPACE, defaults.limits().maxServicesPerNamespace(), 1, Integer.MAX_VALUE)));
    DistroConfig distroDefaults = DistroConfig.defaults();
    DistroConfig distro = distroDefaults.toBuilder()
        .maxBatchSize(s.integer(DISTRO_BATCH, distroDefaults.maxBatchSize(), 1, 100_000))
        .flushDelay(millis(s, DISTRO_FLUSH, distroDefaults.flushDelay()))
        .leadingEdgeFlush(s.bool(DISTRO_LEADING_EDGE, distroDefaults.leadingEdgeFlush()))
        .verifyInterval(millis(s, DISTRO_VERIFY, distroDefaults.verifyInterval()))
        .ownerGracePeriod(millis(s, DISTRO_GRACE, distroDefaults.ownerGracePeriod()))
        .build();
    ClusterSettings clusterSettings = new ClusterSettings(
        s.string(SECRET, ""),
        millis(s, PING_PERIOD, Duration.ofSeconds(1)),
        s.integer(PINGS_TO_DOWN, 3, 1, 100),
        distro,
        millis(s, PEER_WAIT_AT_START, ClusterSettings.DEFAULT_PEER_WAIT_AT_START),
        s.integer(PEER_MAX_CALLS, ClusterSettings.DEFAULT_PEER_MAX_CALLS, 1, 1 << 16),
        tlsFiles(s),
        Optional.of(s.string(CLUSTER_CONF, "")).filter(f -> !f.isBlank()).map(Path::of));
    ClientSettings clientDefaults = ClientSettings.defaults();
    ClientSettings client = new ClientSettings(
        millis(s, CLIENT_IDLE, clientDefaults.idleBeforeDetection()),
        millis(s, CLIENT_DETECTION_TIMEOUT, clientDefaults.detectionTimeout()),
        s.integer(CLIENT_METADATA_MAX, clientDefaults.metadataMaxLength(), 1, 1 << 20),
        s.integer(CLIENT_WRITES_PER_SECOND, clientDefaults.writesPerSecond(), 0, 1 << 24),
        s.integer(CLIENT_MAX_CONNECTIONS_PER_IP, clientDefaults.maxConnectionsPerIp(), 0, 1 << 24),
        Duration.ofMillis(s.longValue(CLIENT_REBALANCE_PERIOD, clientDefaults.rebalancePeriod().toMillis(), 0,
            Duration.ofDays(1).toMillis())),
        s.integer(CLIENT_IO_THREADS, clientDefaults.ioThreads(), 1, 1024));
    NodeConfig config = new NodeConfig(
        host, bind, port, dataDir, members,
        new HttpLimits(
            s.integer(HTTP_MAX_BODY, HttpLimits.DEFAULT_MAX_BODY_BYTES, 1024, 64 << 20),
            s.integer(HTTP_THREADS, HttpLimits.DEFAULT_WORKER_THREADS, 1, 1024),
            millis(s, HTTP_IDLE_TIMEOUT, HttpLimits.DEFAULT_IDLE_TIMEOUT),
            s.integer(HTTP_MAX_CONNECTIONS, HttpLimits.DEFAULT_MAX_CONNECTIONS, 1, 1 << 20),
            s.integer(HTTP_MAX_CONNECTIONS_PER_IP, 0, 0, 1 << 20),
            s.integer(HTTP_WRITES_PER_SECOND_PER_IP, 0, 0, 1 << 24)),
        cpTimeout,
        millis(s, ELECTION_MIN, RaftConfig.DEFAULT_ELECTION_TIMEOUT_MIN),
        millis(s, ELECTION_MAX, RaftConfig.DEFAULT_ELECTION_TIMEOUT_MAX),
        s.longValue(SNAPSHOT_THRESHOLD, RaftConfig.DEFAULT_SNAPSHOT_THRESHOLD, 1, Long.MAX_VALUE),
        s.longValue(LOG_SEGMENT_SIZE, RaftConfig.DEFAULT_LOG_SEGMENT_SIZE_BYTES, 1024, 1L << 30),
        s.integer(RAFT_BATCHES_IN_FLIGHT, RaftConfig.DEFAULT_BATCHES_IN_FLIGHT, 1, 64),
        s.integer(RAFT_MAX_BATCH_OPERATIONS, RaftConfig.DEFAULT_MAX_BATCH_OPERATIONS, 1, 10_000),
        Duration.of(s.longValue(RAFT_BATCH_LINGER, RaftConfig.DEFAULT_BATCH_LINGER.toNanos() / 1000, 0, 100_000),
            ChronoUnit.MICROS),
        naming,
        configSettings(s),
        clusterSettings,
        client,
        pushConfig(s),
        s.bool(PUSH_UDP_TO_CLIENT_IP, false),
        AuthSettings.from(s));
    Set<String> unknown = s.unknownKeys("nacre.");
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("unknown settings " + unknown + "; see conf/nacre.properties.example for the keys");
    }
    return config;
  }

  private static ConfigSettings configSettings(Settings s) {
    ConfigSettings d = ConfigSettings.defaults();
    return new ConfigSettings(
        // Ratis' leader sends no entry over its 4 MiB appender buffer: see ConfigSettings.
        s.integer(CONFIG_MAX_CONTENT, d.maxContentBytes(), 1, 3 << 20),
        Duration.ofDays(s.integer(CONFIG_HISTORY_RETENTION, (int) d.historyRetention().toDays(), 1, 3650)),
        s.integer(CONFIG_MAX_LISTENERS_PER_CLIENT, d.maxListenersPerClient(), 1, 1 << 24),
        s.integer(CONFIG_MAX_LISTENERS, d.maxListeners(), 1, 1 << 26),
        s.integer(CONFIG_PUBLISHES_PER_SECOND_PER_IP, d.publishesPerSecondPerIp(), 0, 1 << 24));
  }

  private static PushConfig pushConfig(Settings s) {
    PushConfig d = PushConfig.defaults();
    try {
      return new PushConfig(
          millis(s, PUSH_DELAY, d.mergeDelay()),
          millis(s, PUSH_ACK_TIMEOUT, d.ackTimeout()),
          millis(s, PUSH_RETRY, d.retryDelay()),
          millis(s, PUSH_MAX_RETRY, d.maxRetryDelay()),
          millis(s, PUSH_DROP_AFTER, d.dropAfter()),
          millis(s, PUSH_UDP_LEASE, d.udpLease()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("nacre.naming.push.*: " + e.getMessage()
          + " (maxRetryDelay is " + PUSH_MAX_RETRY + ", retryDelay is " + PUSH_RETRY + ")", e);
    }
  }

  private static Duration millis(Settings s, String key, Duration fallback) {
    return Duration.ofMillis(s.longValue(key, fallback.toMillis(), 1, Duration.ofDays(1).toMillis()));
  }

  static List<MemberAddress> parseMembers(String list) {
    List<MemberAddress> out = new ArrayList<>();
    for (String raw : list.split("[,\\s]+")) {
      if (raw.isBlank()) {
        continue;
      }
      try {
        out.add(MemberAddress.parse(raw));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(MEMBERS + ": " + e.getMessage(), e);
      }
    }
    return out;
  }
}
