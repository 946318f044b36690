package dev.nacre.node.cluster;

import dev.nacre.consensus.distro.DistroReplicator;
import dev.nacre.consensus.raft.RaftMembers;
import dev.nacre.consensus.raft.RaftStatus;
import dev.nacre.consensus.raft.ReplicatedLog;
import dev.nacre.naming.Naming;
import dev.nacre.naming.distro.EphemeralReplication;
import dev.nacre.naming.distro.ServiceRouting;
import dev.nacre.naming.health.ProbeResultSink;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.writes.EphemeralWrites;
import dev.nacre.node.cluster.distro.GrpcDistroTransport;
import dev.nacre.node.cluster.forward.OwnerWrites;
import dev.nacre.node.cluster.peer.PeerAuth;
import dev.nacre.node.cluster.peer.PeerCallObserver;
import dev.nacre.node.cluster.peer.PeerChannels;
import dev.nacre.node.cluster.peer.PeerServer;
import dev.nacre.node.cluster.peer.PeerTls;
import dev.nacre.node.config.MemberAddress;
import dev.nacre.node.config.NodeConfig;
import dev.nacre.node.status.Readiness;
import dev.nacre.proto.peer.PingResponse;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.apache.ratis.thirdparty.io.grpc.ServerInterceptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a member of a cluster runs besides a standalone node: the peer port, membership pings, and
 * Distro replication of ephemeral instances with write forwarding to the responsible member.
 */
public final class ClusterServices implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ClusterServices.class);

  private final NodeConfig config;
  private final MemberTable members;
  /** Who the members are; {@link #members} is how each of them is doing. */
  private final MemberList memberList;
  private volatile Readiness readiness;
  private final PeerChannels channels;
  private final EphemeralReplication replication;
  private final OwnerWrites ownerWrites;
  /** Applies the ephemeral writes other members send here, this member being responsible for them. */
  private final EphemeralWrites localWrites;
  private final PeerAuth auth;
  private volatile PeerServer server; // read by the metrics scrape
  private volatile Pinger pinger;
  /** Set by {@link #close}: a start still under way (on its own thread) stops at its next step. */
  private boolean closed;
  private volatile LeaderLossWatch leaderLoss;
  private PeerCallObserver peerCalls = PeerCallObserver.NONE;
  /** Set once this node has learnt that it is no longer a member. */
  private volatile boolean removed;

  private final List<ServerInterceptor> peerInterceptors;
  private final ListedAtFile listedAt;

  /**
   * @param clock the node's wall clock; Distro reads it through {@link DistroReplicator#monotonicMillis}
   * @param tls this member's TLS for the peer port ({@link PeerTls#create}, built while the start goes on)
   * @param peerInterceptors run on every authenticated call arriving on the peer port (see
   *     {@link PeerServer#start}); none by default
   */
  public ClusterServices(NodeConfig config, Clock clock, Naming naming, PeerTls tls,
      List<ServerInterceptor> peerInterceptors) {
    this.config = config;
    this.peerInterceptors = List.copyOf(peerInterceptors);
    this.listedAt = new ListedAtFile(config.address(), config.dataDir());
    String self = config.address();
    this.memberList = new MemberList(config.self(), config.members(), listedAt.read());
    PeerAuth auth = new PeerAuth(tls, memberList::member, config.self());
    this.members = new MemberTable(self, ids(config.members()), config.cluster().failedPingsToDown());
    this.channels = new PeerChannels(config.self(), auth);
    // While the rest of the start goes on: the first pings are what a start waits for.
    config.peers().forEach(channels::connect);
    Duration callTimeout = config.cluster().distro().requestTimeout();
    this.replication = naming.replicateEphemeral((handler, home) -> new DistroReplicator(
        self, ids(config.members()), config.cluster().distro(),
        new GrpcDistroTransport(channels, callTimeout, config.cluster().distro().snapshotTimeout()), handler,
        home, DistroReplicator.monotonicMillis(clock)));
    this.localWrites = naming.localWrites();
    this.ownerWrites = new OwnerWrites(self, channels, this::responsibleMember, localWrites, config.cpTimeout());
    members.onOwnershipMembersChanged(this::followMembership);
    memberList.onChange(this::membersChanged);
    config.cluster().memberFile().ifPresent(file -> memberList.onChange(change -> rewrite(file, ids(change.members()))));
    this.auth = auth;
  }

  /** The member that answers HTTP writes and beats for a service, and probes its instances. */
  public String responsibleMember(ServiceKey service) {
    return ServiceRouting.responsibleMember(replicator().ownershipMapper(), service);
  }

  public boolean isResponsible(ServiceKey service) {
    return responsibleMember(service).equals(config.address());
  }

  /** Where the persistent-instance prober puts its results: the local index and every member. */
  public ProbeResultSink probeResults() {
    return replication.persistentHealth();
  }

  /** Ephemeral writes and beats, applied by the member responsible for their service. */
  public EphemeralWrites ownerWrites() {
    return ownerWrites;
  }

  public DistroReplicator replicator() {
    return replication.replicator();
  }

  /** Peer calls refused because the peer port's limit was reached (0 before the port opens). */
  public long refusedPeerCalls() {
    PeerServer open = server;
    return open == null ? 0 : open.refusedCalls();
  }

  public MemberTable members() {
    return members;
  }

  /** The cluster's members now: the configured ones until the Raft configuration says otherwise. */
  public MemberList memberList() {
    return memberList;
  }

  /**
   * Opens the peer port, pings the other members (all at once, round after round) until one
   * answers or {@code peerWaitAtStart} has passed, then loads the ephemeral snapshot from a live
   * one, and starts the periodic pings. Returns once this member is ready: loaded, or alone (no
   * peer answered, or none gave a snapshot in time; verify fills in once peers are seen).
   */
  public void start(ReplicatedLog raft,
      Supplier<Optional<RaftMembers>> raftMembers,
      ScheduledExecutorService scheduler, Readiness readiness, IntSupplier clients) {
    this.readiness = readiness;
    InetSocketAddress peerAddress = new InetSocketAddress(config.bind(), config.self().peerPort());
    Supplier<PingResponse> status = () -> pingStatus(raft.status(), clients.getAsInt());
    PeerServer started = PeerServer.start(config.address(), peerAddress,
        handlers -> new PeerService(status, this::pingedBy, replicator(), localWrites, handlers), auth,
        peerInterceptors, config.cluster().peerMaxCalls(),
        peerCalls);
    synchronized (this) {
      if (closed) {
        started.close();
      }
      refuseIfClosed();
      server = started;
      pinger = new Pinger(members, channels, config.cluster().pingPeriod(), pingTimeout(), scheduler,
          member -> replicator().memberAnsweredAgain(member));
    }
    Duration peerWait = config.cluster().peerWaitAtStart();
    boolean peerFound = pinger.awaitAnyPeer(peerWait);
    // Tell the replicator who is UP under the lock that orders membership events, so that a late
    // ping answer cannot be overtaken by a stale DOWN.
    followMembership(List.of());
    pinger.startPeriodic();
    // The Raft configuration is the member list of record: follow it as it changes (an operator's
    // add or remove, learnt through the log) or as the log recovered it at start.
    long period = config.cluster().pingPeriod().toMillis();
    scheduler.scheduleWithFixedDelay(() -> {
      followRaftMembers(raftMembers);
      leaveIfEveryOtherRefuses();
    }, 0, period, TimeUnit.MILLISECONDS);
    synchronized (this) {
      refuseIfClosed();
      leaderLoss = new LeaderLossWatch(members, channels, raft,
          member -> MemberAddress.parse(member).raftPeerId(), scheduler);
      leaderLoss.start();
      replicator().start();
    }
    // As long as the replicator itself may take: a snapshot asked for just before its load timeout
    // may stream for up to the snapshot timeout (a large registry takes seconds). Cutting it short
    // served a partial registry (a million-instance restart was ready with a third of it).
    Duration loadBound = config.cluster().distro().initialLoadTimeout()
        .plus(config.cluster().distro().snapshotTimeout()).plusSeconds(5);
    try {
      replicator().whenReady().get(loadBound.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      log.warn("[{}] ephemeral snapshot not loaded within {} ms ({}); serving, verify will repair",
          config.address(), loadBound.toMillis(), e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while loading the ephemeral snapshot", e);
    }
    if (replicator().loadedFromPeer()) {
      readiness.distro(Readiness.DistroState.LOADED);
    } else {
      readiness.distro(Readiness.DistroState.ALONE);
      if (!peerFound) {
        log.warn("[{}] ***** NO OTHER MEMBER ANSWERED within {} ms (members {}): starting ALONE with an EMPTY"
            + " ephemeral registry. If other members run, check that this node reaches their peer port"
            + " (port+1001) and shares nacre.cluster.secret; their instances arrive once they are seen. *****",
            config.address(), peerWait.toMillis(), config.members());
      } else {
        log.warn("[{}] ***** no member gave an ephemeral snapshot: starting with what arrived so far;"
            + " verify fills in the rest within a verify interval of seeing each member *****", config.address());
      }
    }
    log.info("[{}] cluster member ready (distro {}); members up: {}", config.address(), readiness.distro(),
        members.ownershipMembers());
  }

  /**
   * A member removed while it was down never sees the configuration without it; it learns it from
   * the others, which all refuse its pings. Ten rounds in a row: far longer than the others take to
   * follow a configuration that adds a member.
   */
  private static final int REFUSED_ROUNDS_TO_LEAVE = 10;

  private void leaveIfEveryOtherRefuses() {
    if (memberList.listedAt() >= 0 && memberList.includesSelf() && members.refusedByEveryOther(REFUSED_ROUNDS_TO_LEAVE)) {
      markRemoved("every other member refuses this node's calls as a non-member's: it was removed from the cluster"
          + " (while it was down, it seems); members it knew: " + memberList.current());
    }
  }

  private void markRemoved(String why) {
    Readiness r = readiness;
    if (r != null && !removed) {
      removed = true;
      String advice = why + ". It serves nothing. To bring it back, stop it, delete its data folder and add it"
          + " again ('nacre members add " + config.address() + "' against a member, or scripts/cluster.sh add-node)";
      log.error("[{}] {}", config.address(), advice);
      r.removed(advice);
    }
  }

  /**
   * Takes the member list from the Raft configuration once the Raft member runs, and refuses to
   * go on when that list no longer names this member: the others no longer count it, and its data
   * stopped at its removal, so it must not come back with its old settings.
   */
  public void requireStillMember(Supplier<Optional<RaftMembers>> raftMembers) {
    followRaftMembers(raftMembers);
    List<MemberAddress> current = memberList.current();
    if (!current.contains(config.self())) {
      throw new IllegalStateException("this node (" + config.address() + ") was removed from the cluster; its"
          + " Raft log lists the members " + current + ". To bring it back, delete its data folder ("
          + config.dataDir() + "), start it with those members and itself in " + NodeConfig.MEMBERS
          + ", then run 'scripts/nacre members add " + config.address() + "' against a member");
    }
  }

  /** Takes the member list from the Raft configuration, once the Raft member runs. */
  public void followRaftMembers(Supplier<Optional<RaftMembers>> raftMembers) {
    try {
      raftMembers.get().ifPresent(m -> {
        long before = memberList.listedAt();
        memberList.follow(m.logIndex(), MemberList.membersOf(m.peers()));
        if (memberList.listedAt() > before) {
          members.forgetRefusals(); // only refusals of the configuration that lists this node count
          listedAt.write(memberList.listedAt());
        }
      });
    } catch (RuntimeException e) {
      log.debug("[{}] Raft members not readable yet: {}", config.address(), e.toString());
    }
  }

  private void rewrite(Path file, List<String> members) {
    try {
      MemberFile.write(file, members);
      log.info("[{}] rewrote {} with the members {}", config.address(), file, members);
    } catch (java.io.UncheckedIOException e) {
      log.warn("[{}] {}", config.address(), e.getMessage());
    }
  }

  private void membersChanged(MemberList.Change change) {
    log.info("[{}] members are now {} (added {}, removed {})", config.address(), change.members(), change.added(),
        change.removed());
    List<String> added = ids(change.added());
    added.forEach(members::add);
    LeaderLossWatch watch = leaderLoss;
    if (watch != null) {
      added.forEach(watch::watch);
    }
    for (String gone : ids(change.removed())) {
      members.remove(gone);
      replicator().memberDown(gone); // its records move to the members that stay, after the grace period
    }
    followMembership(List.of());
    if (!change.members().contains(config.self())) {
      markRemoved("this node was removed from the cluster; members now: " + change.members());
    }
  }

  /** Member ids (the address text) as membership, Distro and the member file use them. */
  private static List<String> ids(Collection<MemberAddress> members) {
    return members.stream().map(MemberAddress::toString).toList();
  }

  private Duration pingTimeout() {
    Duration half = config.cluster().pingPeriod().dividedBy(2);
    return half.compareTo(Duration.ofMillis(200)) < 0 ? Duration.ofMillis(200) : half;
  }

  /** A member pinged this one: it runs, so a member not UP here is pinged back at once. */
  private void pingedBy(String member) {
    Pinger p = pinger;
    if (p != null) {
      p.heardFrom(member);
    }
  }

  private PingResponse pingStatus(RaftStatus raft, int clients) {
    return PingResponse.newBuilder()
        .setMember(config.address())
        .setReady(replicator().isReady())
        .setRaftRole(raft.role())
        .setRaftLeader(raft.leaderId())
        .setRaftTerm(raft.term())
        .setRaftApplyStalledMs(raft.applyStalledMillis())
        .setRaftCommitIndex(raft.commitIndex())
        .setRaftAppliedIndex(raft.appliedIndex())
        .setClients(clients)
        .build();
  }

  // Synchronized: ping outcomes arrive on several threads, and an older list applied after a
  // newer one would leave the replicator with a stale view until the next change.
  // The list passed in may already be stale; read the table's current one under this lock.
  private synchronized void followMembership(List<String> ignored) {
    Set<String> up = new HashSet<>(members.ownershipMembers());
    for (String m : ids(memberList.current())) {
      if (m.equals(config.address())) {
        continue;
      }
      if (up.contains(m)) {
        replicator().memberUp(m);
      } else {
        replicator().memberDown(m);
      }
    }
  }

  /** Where the peer port reports each call's time; set before {@link #start}. */
  public void observePeerCalls(PeerCallObserver observer) {
    this.peerCalls = observer;
  }

  /** Under this object's lock: a start still under way stops once {@link #close} ran. */
  private void refuseIfClosed() {
    if (closed) {
      throw new IllegalStateException("the node closed while its cluster services started");
    }
  }

  @Override
  public void close() {
    synchronized (this) {
      closed = true;
    }
    if (pinger != null) {
      pinger.close();
    }
    if (server != null) {
      server.close();
    }
    replication.close();
    channels.close();
  }
}
