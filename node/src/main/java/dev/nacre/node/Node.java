package dev.nacre.node;

import dev.nacre.consensus.distro.DistroStatus;
import dev.nacre.consensus.raft.RaftConfig;
import dev.nacre.consensus.raft.RaftMembers;
import dev.nacre.consensus.raft.RaftStatus;
import dev.nacre.consensus.raft.RatisReplicatedLog;
import dev.nacre.naming.Naming;
import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.ephemeral.EphemeralRecord;
import dev.nacre.naming.ephemeral.EphemeralStore;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.persistent.NamingStateMachine;
import dev.nacre.naming.push.PushService;
import dev.nacre.naming.push.Subscriptions;
import dev.nacre.naming.registry.RegistryIndex;
import dev.nacre.naming.registry.ServiceSnapshot;
import dev.nacre.node.naming.http.EphemeralWrites;
import dev.nacre.node.http.Json;
import dev.nacre.node.status.MemberView;
import dev.nacre.node.status.MembersApi;
import dev.nacre.node.status.NodeCounts;
import dev.nacre.node.status.RaftAdminApi;
import dev.nacre.node.status.Readiness;
import dev.nacre.node.http.RequestWaits;
import dev.nacre.node.client.ClientConnections;
import dev.nacre.node.auth.AccessControl;
import dev.nacre.node.auth.AuthDirectory;
import dev.nacre.node.client.ClientGrpcServer;
import dev.nacre.node.config.AuthSettings;
import dev.nacre.node.client.ClientRebalancer;
import dev.nacre.node.client.RequestAccess;
import dev.nacre.node.cluster.ClusterServices;
import dev.nacre.node.cluster.MemberState;
import dev.nacre.node.cluster.peer.PeerTls;
import dev.nacre.node.config.MemberAddress;
import dev.nacre.node.config.NodeConfig;
import dev.nacre.node.http.HttpServer;
import dev.nacre.node.naming.grpc.NamingClientRequests;
import dev.nacre.node.http.Router;
import dev.nacre.node.metrics.NodeMetrics;
import dev.nacre.node.naming.udp.UdpSubscriptions;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Nacre process: wires storage, the Raft log, the naming registry and the HTTP Open API, and
 * owns their lifecycle. Several nodes can run in one JVM (tests); nothing here is static.
 */
public final class Node implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Node.class);
  /** Nacos' name for the Raft group of persistent naming data. */
  static final String RAFT_GROUP = "naming_persistent_service";

  private final NodeConfig config;
  private final NodeSeams seams;
  private final Deque<AutoCloseable> resources = new ArrayDeque<>();
  private StartingReplicatedLog raft;
  private NamingOperations naming;
  private ClusterServices cluster;
  private HttpServer http;
  private volatile ClientGrpcServer clientGrpc;
  private PushService push;
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
    CompletableFuture<PeerTls> peerTls = !config.clustered() ? null : onThreadOfItsOwn("peer-tls",
        () -> PeerTls.create(config.cluster().secret(), config.address(), config.cluster().tlsFiles()));
    Naming registry = Naming.open(config.address(), config.naming(), config.push(),
        config.dataDir().resolve("naming"), clock);
    resources.push(registry);
    NamingStateMachine stateMachine = registry.stateMachine();
    // The Raft member starts on its own thread while the rest is built (see StartingReplicatedLog),
    // after reading the persistent state it applies onto: nothing is served before it runs.
    CompletableFuture<RatisReplicatedLog> raftStart = onThreadOfItsOwn("raft-start", () -> {
      registry.loadPersistentState();
      readiness.persistentLoaded();
      return RatisReplicatedLog.start(raftConfig(), stateMachine);
    });
    raft = new StartingReplicatedLog(peerId(config.address()), raftStart);
    resources.push(raft);

    registry.attach(raft);
    naming = registry.operations();
    push = registry.push();
    EphemeralStore ephemeral = registry.ephemeral();
    RegistryIndex index = registry.index();
    ScheduledExecutorService scheduler = seams.timers().apply(config.address());
    resources.push(scheduler::shutdownNow);

    EphemeralWrites ephemeralWrites = EphemeralWrites.local(naming);
    Predicate<ServiceKey> probesHere = service -> true;
    NodeMetrics metrics = new NodeMetrics(config.address());
    resources.push(metrics);
    if (config.clustered()) {
      cluster = new ClusterServices(config, clock, ephemeral, ephemeralWrites, await(peerTls),
          seams.peerInterceptors());
      resources.push(cluster);
      ephemeralWrites = cluster.ownerWrites();
      probesHere = cluster::isResponsible;
      cluster.observePeerCalls(metrics.peerCalls());
    }
    NodeCounts counts = nodeCounts(ephemeral, index, probesHere);
    CompletableFuture<Void> clusterStart = cluster == null ? CompletableFuture.completedFuture(null)
        : startCluster(scheduler, counts);
    udp = UdpSubscriptions.start(config.address(), new InetSocketAddress(config.bind(), 0),
        push, config.push().udpLease(), clock, scheduler);
    resources.push(udp);
    AccessControl access = new AccessControl(config.auth(),
        new AuthDirectory(stateMachine.authRecords(), naming), clock);
    warnIfOpen();
    NodeClients clients = new NodeClients(
        () -> Optional.ofNullable(clientGrpc).map(ClientGrpcServer::connections), naming, push);
    RegistryViews views = new RegistryViews(clients, key -> ephemeral.get(key).map(EphemeralRecord::ownerNodeId),
        namespace -> index.services(namespace).stream().map(ServiceSnapshot::key).toList());
    Router router = new Routes(naming, this::members, ephemeralWrites, config, udp, readiness, counts, access, views)
        .router();
    StartingReplicatedLog member = raft;
    new RaftAdminApi(config.address(), this::currentMembers, new RaftAdminApi.RaftCommands() {
      @Override
      public long takeSnapshot() {
        return member.takeSnapshot();
      }

      @Override
      public void transferLeadership(MemberAddress target) {
        member.transferLeadership(peerId(target.toString()));
      }
    }, new Json()).register(router);
    new MembersApi(config.address(), new MembershipChanges(config, raft, this::currentMembers,
        members -> cluster().ifPresent(c -> c.memberList().replace(members))), new Json()).register(router);
    metrics.watchRegistry(naming, counts);
    metrics.watchRaft(raft::status);
    metrics.watchLeaderChanges(raft, StartingReplicatedLog::leaderChanges);
    metrics.watchRaftSnapshot(raft::latestSnapshot);
    metrics.watchStorage(stateMachine::storageStats);
    push.observe(metrics.pushes());
    if (cluster != null) {
      metrics.watchDistro(cluster.replicator(),
          config.members().stream().filter(m -> !m.equals(config.address())).toList());
      metrics.watchPeerPort(cluster, ClusterServices::refusedPeerCalls);
    }
    metrics.register(router);
    router.observe(metrics.httpRequests());
    // HTTP first: its probes tell how the start goes; every other request gets 503 until ready.
    http = HttpServer.start(
        config.address(),
        new InetSocketAddress(config.bind(), config.port()),
        router,
        config.http(),
        RequestWaits::of,
        seams.httpGate());
    resources.push(http);
    await(clusterStart);
    resources.push(new ApplyStallLog(config.address(), raft::status).start(scheduler));

    RatisReplicatedLog running = raft.awaitStarted();
    log.info("[{}] Raft member running", config.address());
    if (cluster != null) {
      refuseIfRemoved();
    }
    awaitLeaderIfAlone(running);
    // Last to start, first to stop: clients are told to move before anything else goes away.
    clientGrpc = ClientGrpcServer.start(config.address(),
        new InetSocketAddress(config.bind(), config.clientGrpcPort()), config.client(),
        NamingClientRequests.on(config.address(), naming, Optional.of(push), config.push().ackTimeout(),
            config.client().metadataMaxLength()), clock, scheduler,
        seams.clientInterceptors(), metrics.clientRequests(),
        access.enabled() ? access::namespaceRefusal : RequestAccess.OPEN);
    resources.push(clientGrpc);
    if (cluster != null && !config.client().rebalancePeriod().isZero()) {
      ClusterServices members = cluster;
      resources.push(new ClientRebalancer(config.address(), clientGrpc.connections(),
          () -> members.members().readyPeerClients()).start(scheduler, config.client().rebalancePeriod()));
    }
    readiness.serving();
    metrics.watchJvm();
    // Heartbeat expiry and probes start once the node serves: a restart's CPU goes to loading the
    // registry first (a round of probes over a large registry costs seconds of CPU).
    resources.push(registry.startChecks(scheduler, probesHere,
        cluster == null ? Optional.empty() : Optional.of(cluster.probeResults())));
    log.info("[{}] ready (distro {}): HTTP on {}, Nacos clients on {}, Raft on {}", config.address(),
        readiness.distro(), http.address(), clientGrpc.port(), config.raftPort());
  }

  /**
   * Starts the peer port, the pings and the Distro load on a thread of their own, so that the
   * ephemeral snapshot is asked for while this thread builds the HTTP API and opens its port: a
   * restart is ready once both are done. Completes once the snapshot is loaded (or given up).
   */
  private CompletableFuture<Void> startCluster(ScheduledExecutorService scheduler, NodeCounts counts) {
    ClusterServices members = cluster;
    StartingReplicatedLog member = raft;
    return onThreadOfItsOwn("cluster-start", () -> {
      members.start(member, Node::peerId, () -> raftMembers(member), scheduler, readiness, counts::clients);
      return null;
    });
  }

  /** The outcome of a part of the start that ran on a thread of its own; its failure as it was thrown. */
  private static <T> T await(CompletableFuture<T> part) {
    try {
      return part.join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : e;
    }
  }

  /** Runs one part of the start on a daemon thread named after it; the future says how it ended. */
  private <T> CompletableFuture<T> onThreadOfItsOwn(String part, Callable<T> work) {
    CompletableFuture<T> done = new CompletableFuture<>();
    Thread thread = new Thread(() -> {
      try {
        done.complete(work.call());
      } catch (Throwable e) {
        done.completeExceptionally(e);
      }
    }, part + "-" + config.address());
    thread.setDaemon(true);
    thread.start();
    return done;
  }

  /**
   * A member whose Raft log says it was removed must not come back as a member with its old
   * settings: the others no longer count it, and its data stopped at its removal.
   */
  private void refuseIfRemoved() {
    cluster.followRaftMembers(() -> raftMembers(raft));
    List<String> members = cluster.memberList().current();
    if (!members.contains(config.address())) {
      throw new IllegalStateException("this node (" + config.address() + ") was removed from the cluster; its"
          + " Raft log lists the members " + members + ". To bring it back, delete its data folder ("
          + config.dataDir() + "), start it with those members and itself in " + NodeConfig.MEMBERS
          + ", then run 'scripts/nacre members add " + config.address() + "' against a member");
    }
  }

  /** The members in this node's Raft configuration; empty until its Raft member runs. */
  private static Optional<RaftMembers> raftMembers(StartingReplicatedLog raft) {
    return raft.running().map(running -> running.admin().members());
  }

  /** The cluster's members now (the configured ones for a standalone node). */
  private List<String> currentMembers() {
    ClusterServices c = cluster;
    return c == null ? config.members() : c.memberList().current();
  }

  /** A node that other hosts can reach, with anyone allowed to change the registry, says so. */
  private void warnIfOpen() {
    boolean loopback;
    try {
      loopback = java.net.InetAddress.getByName(config.bind()).isLoopbackAddress();
    } catch (java.net.UnknownHostException e) {
      loopback = false;
    }
    if (!config.auth().enabled() && !loopback) {
      log.warn("[{}] listening on {} with client authentication OFF: anyone who reaches this address can"
          + " change the registry. Set {}=true and {} (see conf/nacre.properties.example).", config.address(),
          config.bind(), AuthSettings.ENABLED, AuthSettings.TOKEN_KEY);
    }
  }

  private NodeCounts nodeCounts(EphemeralStore ephemeral, RegistryIndex index, Predicate<ServiceKey> probesHere) {
    return new NodeCounts() {
      @Override
      public int subscriptions() {
        return push.size(); // gRPC subscribers and 1.x UDP receivers alike
      }

      @Override
      public int clients() {
        ClientGrpcServer port = clientGrpc; // opens last: no client before it
        return port == null ? 0 : port.connections().registeredIds().size();
      }

      @Override
      public long responsibleInstances() {
        return ephemeral.countOwned() + index.allServices().stream()
            .filter(s -> probesHere.test(s.key())).mapToLong(s -> s.persistentInstances().size()).sum();
      }
    };
  }

  /**
   * A standalone node elects itself; waiting for that keeps its first CP write from failing. A
   * cluster member does not wait: its peers may start later, and until a quorum forms it serves
   * reads and AP writes while CP writes fail with 503.
   */
  private void awaitLeaderIfAlone(RatisReplicatedLog running) {
    if (config.members().size() == 1) {
      running.awaitLeader(config.electionTimeoutMax().multipliedBy(10));
    }
  }

  /** The cluster services of a member; empty for a standalone node. */
  public Optional<ClusterServices> cluster() {
    return Optional.ofNullable(cluster);
  }

  private RaftConfig raftConfig() {
    Map<String, String> peers = new LinkedHashMap<>();
    for (String member : config.members()) {
      peers.put(peerId(member), MemberAddress.parse(member).raftAddress());
    }
    RaftConfig.Builder builder = RaftConfig.builder();
    if (config.clustered()) {
      // Mutual TLS on the Raft port, with certificates derived from the cluster secret.
      builder.clusterSecret(config.cluster().secret());
      config.cluster().tlsFiles().ifPresent(builder::tlsFiles);
    }
    return seams.raft().apply(builder
        .groupId(RAFT_GROUP)
        .selfId(peerId(config.address()))
        .peers(peers)
        .storageDir(config.dataDir().resolve("raft"))
        .electionTimeout(config.electionTimeoutMin(), config.electionTimeoutMax())
        .requestTimeout(config.cpTimeout())
        .snapshotThreshold(config.snapshotThreshold())
        .logSegmentSizeBytes(config.logSegmentSizeBytes())
        .batchesInFlight(config.raftBatchesInFlight())
        .maxBatchOperations(config.raftMaxBatchOperations())
        .batchLinger(config.raftBatchLinger()))
        .build();
  }

  /** Raft peer ids are member addresses with only id-safe characters. */
  public static String peerId(String memberAddress) {
    return memberAddress.replaceAll("[^A-Za-z0-9_-]", "_");
  }

  private List<MemberView> members() {
    RaftStatus status = raft.status();
    String leader = status.leaderId().isEmpty() ? "" : addressOf(status.leaderId());
    if (cluster == null) {
      return List.of(new MemberView(config.host(), config.port(), "UP", status.role(), leader, status.term(),
          config.raftPort(), status.applyStalledMillis(), status.commitIndex(), status.appliedIndex(), -1, -1));
    }
    Optional<DistroStatus> distro = distroStatus();
    Map<String, Integer> pending = distro.map(DistroStatus::pendingKeysByPeer).orElse(Map.of());
    Map<String, DistroStatus.PeerTraffic> traffic = distro.map(DistroStatus::trafficByPeer).orElse(Map.of());
    return cluster.members().members().stream().map(m -> {
      MemberAddress address = MemberAddress.parse(m.address());
      boolean self = m.address().equals(config.address());
      boolean up = m.state() == MemberState.UP;
      String role = self ? status.role() : m.state() == MemberState.DOWN ? "UNKNOWN" : m.raftRole();
      return new MemberView(address.host(), address.port(), m.state().name(), role, leader,
          self ? status.term() : m.raftTerm(), address.raftPort(),
          self ? status.applyStalledMillis() : up ? m.raftApplyStalledMs() : -1,
          self ? status.commitIndex() : up ? m.raftCommitIndex() : -1,
          self ? status.appliedIndex() : up ? m.raftAppliedIndex() : -1,
          self ? -1 : pending.getOrDefault(m.address(), -1),
          self ? -1 : traffic.getOrDefault(m.address(), DistroStatus.PeerTraffic.NONE).lastAckMillis());
    }).toList();
  }

  /** The Distro replicator's queues and traffic per peer; empty when it does not answer soon (busy). */
  private Optional<DistroStatus> distroStatus() {
    try {
      return Optional.of(cluster.replicator().status().get(1, java.util.concurrent.TimeUnit.SECONDS));
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  private String addressOf(String peerId) {
    return currentMembers().stream().filter(m -> peerId(m).equals(peerId)).findFirst().orElse(peerId);
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
