package dev.nacre.node;

import static dev.nacre.node.StartThreads.await;

import dev.nacre.config.Config;
import dev.nacre.config.api.ConfigOperations;
import dev.nacre.consensus.raft.RaftStatus;
import dev.nacre.consensus.raft.RatisReplicatedLog;
import dev.nacre.consensus.state.DomainStateMachine;
import dev.nacre.naming.Naming;
import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.api.Subscriptions;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.writes.EphemeralWrites;
import dev.nacre.naming.writes.InstanceWriteRouter;
import dev.nacre.node.auth.AccessControl;
import dev.nacre.node.auth.AuthDirectory;
import dev.nacre.node.client.ClientConnections;
import dev.nacre.node.client.ClientGrpcServer;
import dev.nacre.node.client.ClientRebalancer;
import dev.nacre.node.client.ClientRequestHandlers;
import dev.nacre.node.client.RequestAccess;
import dev.nacre.node.cluster.ClusterServices;
import dev.nacre.node.cluster.peer.PeerTls;
import dev.nacre.node.config.NodeConfig;
import dev.nacre.node.configs.grpc.ConfigClientRequests;
import dev.nacre.node.configs.grpc.ConfigPushCounts;
import dev.nacre.node.configs.http.ConfigHttpApi;
import dev.nacre.node.http.HttpServer;
import dev.nacre.node.http.RequestWaits;
import dev.nacre.node.http.Router;
import dev.nacre.node.metrics.ConfigMeters;
import dev.nacre.node.metrics.NodeMetrics;
import dev.nacre.node.naming.grpc.NamingClientRequests;
import dev.nacre.node.naming.udp.UdpSubscriptions;
import dev.nacre.node.status.NodeCounts;
import dev.nacre.node.status.Readiness;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Nacre process: starts its parts in order (storage and the Raft member, the naming registry
 * and the configuration service, the peer port, the HTTP port, the client port) and stops them in
 * reverse. Several nodes can run in one JVM (tests); nothing here is static. What it asks of
 * naming and configuration is what {@link Naming} and {@link Config} offer.
 */
public final class Node implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Node.class);

  private final NodeConfig config;
  private final NodeSeams seams;
  private final Deque<AutoCloseable> resources = new ArrayDeque<>();
  private StartingReplicatedLog raft;
  private NamingOperations naming;
  private ConfigOperations configs;
  /** Change notifications to gRPC config listeners, by outcome (passed on to the meters). */
  private ConfigPushCounts configPushes;
  private Subscriptions push;
  private ClusterServices cluster;
  private HttpServer http;
  private volatile ClientGrpcServer clientGrpc;
  private UdpSubscriptions udp;
  private Readiness readiness;

  private Node(NodeConfig config, NodeSeams seams) {
    this.config = config;
    this.seams = seams;
  }

  /**
   * Starts every part and returns once the HTTP API answers. A standalone node also waits for
   * its Raft group to elect itself, so that its first CP write does not fail.
   */
  public static Node start(NodeConfig config) {
    return start(config, NodeSeams.defaults());
  }

  /** As {@link #start(NodeConfig)}, with what {@code seams} puts into the node. */
  public static Node start(NodeConfig config, NodeSeams seams) {
    Node node = new Node(config, seams);
    try {
      node.startParts();
      return node;
    } catch (Exception e) {
      node.close();
      throw new IllegalStateException("node " + config.address() + " failed to start: " + e.getMessage(), e);
    }
  }

  private void startParts() throws InterruptedException, java.io.IOException {
    log.info("[{}] starting with {}", config.address(), config);
    readiness = new Readiness(config.clustered());
    Clock clock = Clock.systemUTC();
    // The peer port's TLS on a thread of its own: the main thread needed about a third of a second
    // for it (a key pair, signatures, the TLS providers' first use) before the peer port could open.
    CompletableFuture<PeerTls> peerTls = !config.clustered() ? null : StartThreads.start("peer-tls", config.address(),
        () -> PeerTls.create(config.cluster().secret(), config.self(), config.cluster().tlsFiles()));
    Naming registry = Naming.open(config.address(), config.naming(), config.push(), clock);
    resources.push(registry);
    Config configService = Config.open(config.address(), config.configs(), clock);
    resources.push(configService);
    // One Raft group for every domain: an entry is applied to their shared RocksDB whole or not at all.
    DomainStateMachine state = DomainStateMachine.openUnread(stateDir(config.dataDir()),
        List.of(registry.domain(), configService.domain()));
    resources.push(state);
    // The Raft member starts on its own thread while the rest is built (see StartingReplicatedLog),
    // after reading the persistent state it applies onto: nothing is served before it runs.
    raft = new StartingReplicatedLog(config.self().raftPeerId(), StartThreads.start("raft-start", config.address(),
        () -> {
          state.load();
          readiness.persistentLoaded();
          return RatisReplicatedLog.start(NodeRaft.config(config, seams.raft()), state);
        }));
    resources.push(raft);
    registry.attach(raft);
    configService.attach(raft);
    configs = configService.operations();
    naming = registry.operations();
    push = registry.push();
    ScheduledExecutorService scheduler = seams.timers().apply(config.address());
    resources.push(scheduler::shutdownNow);

    EphemeralWrites owners = registry.localWrites();
    Predicate<ServiceKey> probesHere = service -> true;
    NodeMetrics metrics = new NodeMetrics(config.address());
    resources.push(metrics);
    if (config.clustered()) {
      cluster = new ClusterServices(config, clock, registry, await(peerTls), seams.peerInterceptors());
      resources.push(cluster);
      owners = cluster.ownerWrites();
      probesHere = cluster::isResponsible;
      cluster.observePeerCalls(metrics.peerCalls());
    }
    NodeCounts counts = new LiveCounts(registry, probesHere, () -> Optional.ofNullable(clientGrpc));
    ClusterServices members = cluster;
    CompletableFuture<Void> clusterStart = members == null ? CompletableFuture.completedFuture(null)
        // The ephemeral snapshot is asked for while this thread builds the HTTP API and opens its port.
        : StartThreads.start("cluster-start", config.address(), () -> {
          members.start(raft, raft::members, scheduler, readiness, counts::clients);
          return null;
        });
    udp = UdpSubscriptions.start(config.address(), new InetSocketAddress(config.bind(), 0),
        registry.push(), config.push().udpLease(), clock, scheduler);
    resources.push(udp);
    AccessControl access = new AccessControl(config.auth(), new AuthDirectory(registry.authRecords(), naming), clock);
    AccessControl.warnIfOpen(config);
    MemberViews memberViews = new MemberViews(config, raft::status, this::cluster);
    NodeClients clients = new NodeClients(
        () -> Optional.ofNullable(clientGrpc).map(ClientGrpcServer::connections), naming, push);
    InstanceWriteRouter writes = registry.writes(owners);
    Router router = new Routes(naming, writes, memberViews, config, udp, readiness, counts, access,
        new RegistryViews(clients, registry::ownerOf, registry::services)).withAdmin(config.address(), raft,
            memberViews, new MembershipChanges(config, raft, memberViews::current,
                list -> cluster().ifPresent(c -> c.memberList().replace(list)))).router();
    ConfigHttpApi.register(router, configs, configService.listeners());
    metrics.watchRegistry(naming, counts);
    metrics.watchRaft(raft::status);
    metrics.watchLeaderChanges(raft, StartingReplicatedLog::leaderChanges);
    metrics.watchRaftSnapshot(raft::latestSnapshot);
    metrics.watchStorage(state::storageStats);
    registry.push().observe(metrics.pushes());
    if (cluster != null) {
      metrics.watchDistro(cluster.replicator(), config.peers().stream().map(Object::toString).toList());
      metrics.watchPeerPort(cluster, ClusterServices::refusedPeerCalls);
    }
    ConfigMeters configMeters = ConfigMeters.watch(metrics, configService::configurations,
        () -> configService.listeners().count());
    configService.observeWrites(configMeters.writes());
    configPushes = new ConfigPushCounts(configMeters.notifications());
    metrics.register(router);
    router.observe(metrics.httpRequests());
    // HTTP first: its probes tell how the start goes; every other request gets 503 until ready.
    http = HttpServer.start(config.address(), new InetSocketAddress(config.bind(), config.port()), router,
        config.http(), RequestWaits::of, seams.httpGate());
    resources.push(http);
    await(clusterStart);
    resources.push(new ApplyStallLog(config.address(), raft::status).start(scheduler));

    RatisReplicatedLog running = raft.awaitStarted();
    log.info("[{}] Raft member running", config.address());
    if (cluster != null) {
      cluster.requireStillMember(raft::members);
    }
    if (config.members().size() == 1) {
      // A standalone node elects itself; waiting for that keeps its first CP write from failing. A
      // member does not wait: until a quorum forms it serves reads and AP writes, CP writes get 503.
      running.awaitLeader(config.electionTimeoutMax().multipliedBy(10));
    }
    // Last to start, first to stop: clients are told to move before anything else goes away.
    clientGrpc = ClientGrpcServer.start(config.address(),
        new InetSocketAddress(config.bind(), config.clientGrpcPort()), config.client(),
        ClientRequestHandlers.combine(
            NamingClientRequests.on(config.address(), naming, writes, Optional.of(push),
                config.push().ackTimeout(), config.client().metadataMaxLength()),
            ConfigClientRequests.on(config.address(), configs, configService.listeners(),
                config.push().ackTimeout(), configPushes)),
        clock, scheduler,
        seams.clientInterceptors(), metrics.clientRequests(),
        access.enabled() ? access::namespaceRefusal : RequestAccess.OPEN);
    resources.push(clientGrpc);
    if (cluster != null && !config.client().rebalancePeriod().isZero()) {
      resources.push(new ClientRebalancer(config.address(), clientGrpc.connections(),
          () -> members.members().readyPeerClients()).start(scheduler, config.client().rebalancePeriod()));
    }
    readiness.serving();
    metrics.watchJvm();
    // Heartbeat expiry and probes start once the node serves: a restart's CPU goes to loading the
    // registry first (a round of probes over a large registry costs seconds of CPU).
    resources.push(registry.startChecks(scheduler, probesHere,
        cluster == null ? Optional.empty() : Optional.of(cluster.probeResults())));
    resources.push(configService.startChecks(scheduler));
    log.info("[{}] ready (distro {}): HTTP on {}, Nacos clients on {}, Raft on {}", config.address(),
        readiness.distro(), http.address(), clientGrpc.port(), config.raftPort());
  }

  /**
   * Where the replicated state lives. A folder of the versions before the configuration service
   * ({@code naming/} beside the Raft log) holds a log whose operations name no domain: replaying it
   * would refuse every one of them, so such a folder is refused instead of being read as empty.
   */
  static Path stateDir(Path dataDir) {
    Path state = dataDir.resolve("state");
    if (Files.isDirectory(dataDir.resolve("naming")) && !Files.exists(state)) {
      throw new IllegalStateException(dataDir.toAbsolutePath() + " was written by a Nacre without the"
          + " configuration service (it has naming/ and no state/), whose Raft log this version cannot"
          + " replay; start this member on an empty data folder (--data-dir) and let it install the"
          + " state from the other members, or export and register the data again");
    }
    return state;
  }

  /** The cluster services of a member; empty for a standalone node. */
  public Optional<ClusterServices> cluster() {
    return Optional.ofNullable(cluster);
  }

  public NodeConfig config() {
    return config;
  }

  public InetSocketAddress httpAddress() {
    return http.address();
  }

  public NamingOperations naming() {
    return naming;
  }

  /** Change notifications sent to gRPC config listeners, counted by outcome. */
  public ConfigPushCounts configPushes() {
    return configPushes;
  }

  /** The configuration service's operations, as the client ports call them. */
  public ConfigOperations configs() {
    return configs;
  }

  /** The Nacos 2.x client connections of this node (gRPC, port P+1000). */
  public ClientConnections clientConnections() {
    return clientGrpc.connections();
  }

  /** Where the client transports (gRPC streams, UDP) subscribe their clients for pushes. */
  public Subscriptions subscriptions() {
    return push;
  }

  /** The Nacos 1.x UDP subscriptions (tests look at their socket and counters). */
  UdpSubscriptions udp() {
    return udp;
  }

  /** Whether this node answers clients yet, and the state of its ephemeral registry. */
  public Readiness readiness() {
    return readiness;
  }

  public RaftStatus raftStatus() {
    return raft.status();
  }

  /** Stops everything in reverse start order; safe to call twice. */
  @Override
  public void close() {
    while (!resources.isEmpty()) {
      AutoCloseable r = resources.pop();
      try {
        r.close();
      } catch (Exception e) {
        log.warn("[{}] while stopping {}: {}", config.address(), r, e.toString());
      }
    }
  }
}
