package dev.nacre.consensus.raft;

import dev.nacre.consensus.raft.internal.AppliedIndexWaiters;
import dev.nacre.consensus.raft.internal.ApplyResult;
import dev.nacre.consensus.raft.internal.BoundedCalls;
import dev.nacre.consensus.raft.internal.BoundedServerStop;
import dev.nacre.consensus.raft.internal.EarlyElection;
import dev.nacre.consensus.raft.internal.ForwardRpc;
import dev.nacre.consensus.raft.internal.ForwardedRequests;
import dev.nacre.consensus.raft.internal.LeaderEntries;
import dev.nacre.consensus.raft.internal.LeaderForwards;
import dev.nacre.consensus.raft.internal.LeaderWatch;
import dev.nacre.consensus.raft.internal.OperationBatcher;
import dev.nacre.consensus.raft.internal.RatisProperties;
import dev.nacre.consensus.raft.internal.ReadIndexBarrier;
import dev.nacre.consensus.raft.internal.StateMachineAdapter;
import dev.nacre.consensus.raft.internal.TrackedOperation;
import dev.nacre.consensus.tls.SecretDerivedTls;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.grpc.GrpcTlsConfig;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.storage.RaftStorage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link ReplicatedLog} on one Apache Ratis group over gRPC: a Raft server for this member that
 * takes the entries this member appends while it leads, a client that sends read barriers and admin
 * requests, and a call on the Raft port that forwards writes to the leader while another member
 * leads. Every call is bounded
 * by {@link RaftConfig#requestTimeout()}; callbacks of returned futures run on a thread of this
 * log, never on Ratis' apply thread.
 *
 * <p>With {@link RaftConfig#clusterSecret()} set, the Raft port (Raft, client and admin services)
 * accepts only mutual-TLS connections whose certificate derives from the same secret, and this
 * member presents such a certificate to the others; see {@code dev.nacre.consensus.tls.SecretDerivedTls} for the
 * scheme and its limits. Without it, the port is unauthenticated plaintext: only for a single
 * node or a trusted network.
 */
public final class RatisReplicatedLog implements ReplicatedLog {
  private static final Logger log = LoggerFactory.getLogger(RatisReplicatedLog.class);
  /**
   * Batches a member that does not lead keeps on their way to the leader. More than one, so that
   * its operations do not wait a whole round trip for the previous forward; the leader merges
   * them into its own entries anyway. 4 and 16 measured alike, 1 made 1.5x as many entries.
   */
  private static final int FORWARDS_IN_FLIGHT = 4;
  /** How long stopping the Raft server may take before the stop goes on without it. */
  private static final long SERVER_CLOSE_BOUND_MS = 15_000;
  /** Results of forwarded operations each member keeps to answer repeats: seconds of a busy cluster. */
  private static final int REMEMBERED_FORWARDS = 65_536;

  private final RaftConfig config;
  private final RaftGroupId groupId;
  private final RaftPeerId selfId;
  private final RaftServer server;
  private final RaftGroup group;
  private final Parameters parameters;
  /** Passes read barriers and sends admin requests. */
  private final RaftClient client;
  /** This member's channels to the others' Raft ports, for forwards. */
  private final ForwardRpc forwardRpc;
  /** When {@link #status} first saw the commit index ahead of the applied one since the last apply. */
  private volatile long behindSeenNanos = Long.MIN_VALUE;
  private final AppliedIndexWaiters appliedWaiters;
  private final LeaderWatch leaderWatch;
  private final BoundedCalls calls;
  private final ExecutorService batchCallbacks;
  /** Batches that become Raft entries here, while this member leads. */
  private final OperationBatcher<TrackedOperation> entries;
  /** Batches forwarded to the leader, while another member leads. */
  private final OperationBatcher<TrackedOperation> forwards;
  /** Appends this member's entries while it leads. */
  private final LeaderEntries leaderEntries;
  /** Who this member's forwarded operations come from: unique to this run of the member. */
  private final String forwardOrigin;
  private final AtomicLong forwardSequence = new AtomicLong();
  /** Forwards in flight, sent again to each new leader and committed here should this member lead. */
  private final LeaderForwards leaderForwards;
  /** Commits the batches other members forward while this member leads. */
  private final ForwardedRequests forwarded;
  private final ReadIndexBarrier readIndex;
  private final RaftAdmin admin;
  private final AtomicBoolean closed = new AtomicBoolean();

  private RatisReplicatedLog(RaftConfig config, ReplicatedStateMachine stateMachine) throws IOException {
    this.config = config;
    this.groupId = RaftGroupId.valueOf(UUID.nameUUIDFromBytes(config.groupId().getBytes(StandardCharsets.UTF_8)));
    this.selfId = RaftPeerId.valueOf(config.selfId());
    this.appliedWaiters = new AppliedIndexWaiters();
    this.leaderWatch = new LeaderWatch(this::leaderChanged);
    List<RaftPeer> peers = config.peers().entrySet().stream()
        .map(e -> RaftPeer.newBuilder().setId(e.getKey()).setAddress(e.getValue()).build())
        .toList();
    this.group = RaftGroup.valueOf(groupId, peers);
    GrpcTlsConfig tls = !config.authenticated() ? null
        : config.tlsFiles() != null ? config.tlsFiles().grpcTlsConfig()
        : SecretDerivedTls.issue(config.clusterSecret(), config.selfId(), config.selfHost()).grpcTlsConfig();
    this.parameters = RatisProperties.parameters(tls, config.handlerThreads(),
        ForwardRpc.service(config.selfId(), this::leadsNow, this::commitForwarded, config.forwardInterceptor()));
    this.calls = new BoundedCalls(config.selfId());
    this.forwardRpc = new ForwardRpc(this::raftAddressOf, tls, calls);
    this.batchCallbacks = Executors.newSingleThreadExecutor(daemon("nacre-raft-batch-" + config.selfId()));
    this.forwardOrigin = config.selfId() + "/" + UUID.randomUUID(); // the leader reads the peer id back
    this.entries = new OperationBatcher<>(config.batchesInFlight(), config.maxBatchOperations(),
        op -> op.operation().length, config.batchLinger().toNanos(), this::appendEntry,
        batchCallbacks);
    this.forwards = new OperationBatcher<>(FORWARDS_IN_FLIGHT, config.maxBatchOperations(),
        op -> op.operation().length, 0, this::forwardToLeader,
        batchCallbacks);
    this.forwarded = new ForwardedRequests(entries::submit, appliedWaiters::applied, REMEMBERED_FORWARDS);
    this.leaderForwards = new LeaderForwards(config.selfId(), leaderWatch::current, forwardRpc, forwarded::results,
        appliedWaiters, config.requestTimeout().toNanos(), batchCallbacks);
    this.server = RaftServer.newBuilder()
        .setServerId(selfId)
        .setGroup(group)
        .setProperties(RatisProperties.server(config))
        .setParameters(parameters)
        .setStateMachine(new StateMachineAdapter(config.selfId(), stateMachine, appliedWaiters, leaderWatch,
            forwarded, config.snapshotThreshold()))
        .setOption(RaftStorage.StartupOption.RECOVER)
        .build();
    this.leaderEntries = new LeaderEntries(server, groupId, selfId, clientIdPrefix(config.selfId()), appliedWaiters,
        forwarded, config.requestTimeout());
    this.client = newClient();
    this.readIndex = new ReadIndexBarrier(client, selfId, calls, config.electionTimeoutMax().toMillis());
    this.admin = new RaftAdmin(config, groupId, selfId, server, client, this::newClient);
  }

  /**
   * The high 64 bits of every Raft client id that the member with this peer id uses (the low 64
   * are random, so every client a member makes has its own id), and of the entries it appends as
   * leader. Whoever sees a client request on the leader (code hooked into Ratis' server, a log) can
   * tell from it which member the request comes from.
   */
  public static long clientIdPrefix(String peerId) {
    return UUID.nameUUIDFromBytes(("nacre-raft-client:" + peerId).getBytes(StandardCharsets.UTF_8)).getMostSignificantBits();
  }

  private RaftClient newClient() {
    return RaftClient.newBuilder()
        .setClientId(ClientId.valueOf(new UUID(clientIdPrefix(config.selfId()), ThreadLocalRandom.current().nextLong())))
        .setRaftGroup(group)
        .setLeaderId(selfId)
        .setProperties(RatisProperties.client(config))
        .setParameters(parameters)
        .setRetryPolicy(RatisProperties.clientRetry(config))
        .build();
  }

  /** Starts this member's Raft server on its port and returns once it runs (a leader may come later). */
  public static RatisReplicatedLog start(RaftConfig config, ReplicatedStateMachine stateMachine) {
    Objects.requireNonNull(stateMachine, "stateMachine");
    RatisReplicatedLog replicatedLog = null;
    try {
      replicatedLog = new RatisReplicatedLog(config, stateMachine);
      log.info("[{}] starting Raft member of group {} ({}) with {}", config.selfId(), config.groupId(),
          replicatedLog.groupId, config);
      replicatedLog.server.start();
      return replicatedLog;
    } catch (IOException | RuntimeException e) {
      if (replicatedLog != null) {
        replicatedLog.close();
      }
      throw new ConsensusUnavailableException("[" + config.selfId() + "] cannot start the Raft member on port "
          + config.selfPort() + " with storage " + config.storageDir()
          + ": check that the port is free and the folder writable", e);
    }
  }

  /**
   * Queues the operation for the next batch (see {@code internal.OperationBatcher}); its deadline
   * runs from now, so time spent waiting for a batch counts. An operation whose caller's deadline
   * passed before its batch formed is never sent.
   */
  @Override
  public CompletableFuture<byte[]> submit(byte[] operation) {
    Objects.requireNonNull(operation, "operation");
    String what = "commit";
    AtomicReference<CompletableFuture<byte[]>> queued = new AtomicReference<>();
    CompletableFuture<byte[]> result = calls.call(() -> {
          queued.set(leaderEntries.leadsNow() ? entries.submit(TrackedOperation.own(operation))
              : forwards.submit(new TrackedOperation(operation, forwardOrigin, forwardSequence.incrementAndGet())));
          return queued.get().thenApply(ApplyResult::decode); // throws when rejected
        },
        config.requestTimeout().toMillis(), () -> noQuorum(what, null), error -> translate(what, error));
    result.whenComplete((value, error) -> {
      CompletableFuture<byte[]> pending = queued.get();
      if (pending != null) {
        pending.cancel(false); // no-op once sent and answered; drops it from the queue otherwise
      }
    });
    return result;
  }

  /** Late-bound: the leader's entries need the server, which needs {@link #entries} for forwards. */
  private CompletableFuture<List<byte[]>> appendEntry(List<TrackedOperation> operations) {
    return leaderEntries.append(operations);
  }

  /** Late-bound, as {@link #appendEntry}. */
  private CompletableFuture<List<byte[]>> forwardToLeader(List<TrackedOperation> operations) {
    return leaderForwards.forward(operations);
  }

  /**
   * A member's Raft address as the group's configuration lists it now, so that a member added
   * since this one started is reached too (it may lead); the start-up list while none is known.
   */
  private String raftAddressOf(String memberId) {
    return currentPeers().getOrDefault(memberId, config.peers().get(memberId));
  }

  /** Late-bound: the Raft port (and with it the forward service) is built before the leader's entries. */
  private boolean leadsNow() {
    return leaderEntries.leadsNow();
  }

  private CompletableFuture<byte[]> commitForwarded(List<TrackedOperation> operations) {
    return forwarded.commit(operations);
  }

  private void leaderChanged(String leaderId) {
    leaderForwards.leaderChanged(leaderId);
  }

  @Override
  public CompletableFuture<Void> readBarrier() {
    String what = "serve a linearizable read";
    long timeoutMs = config.requestTimeout().toMillis();
    return calls.call(() -> readIndex.pass(timeoutMs, cause -> noQuorum(what, cause)), timeoutMs,
        () -> noQuorum(what, null), error -> translate(what, error));
  }

  /**
   * Waits up to {@code timeout} until this member has heard of a leader; returns its id. For
   * startup; use {@link #status()} for the current view.
   */
  public String awaitLeader(Duration timeout) {
    try {
      return leaderWatch.await(timeout).orElseThrow(() -> new ConsensusUnavailableException(
          "[" + config.selfId() + "] no Raft leader elected within " + timeout.toMillis() + " ms; "
              + membersNeeded() + " and reachable"));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ConsensusUnavailableException("[" + config.selfId() + "] interrupted while waiting for a leader", e);
    }
  }

  /** Leaders this member learned of since it started: each ends an election it saw. */
  public long leaderChanges() {
    return leaderWatch.leadersHeardOf();
  }

  @Override
  public RaftStatus status() {
    try {
      RaftServer.Division division = server.getDivision(groupId);
      RaftPeerId leader = division.getInfo().getLeaderId();
      long committed = division.getRaftLog().getLastCommittedIndex();
      long applied = division.getInfo().getLastAppliedIndex();
      long stalledMs = committed > applied ? applyStalledMillis() : 0;
      return new RaftStatus(config.selfId(), division.getInfo().getCurrentRole().name(),
          leader == null ? "" : leader.toString(), division.getInfo().getCurrentTerm(), committed, applied,
          stalledMs);
    } catch (IOException | RuntimeException e) {
      return new RaftStatus(config.selfId(), "UNKNOWN", "", 0, 0, appliedWaiters.applied());
    }
  }

  /**
   * How long committed entries have waited with nothing applied: since the last apply, or since a
   * status first saw the commit index ahead, whichever is later. Not simply since the last apply:
   * a member idle for an hour that has just learnt of a new commit has not stalled for an hour.
   */
  private long applyStalledMillis() {
    long now = System.nanoTime();
    if (behindSeenNanos < appliedWaiters.lastAdvanceNanos()) {
      behindSeenNanos = now; // the first look at this wait: it starts now at the earliest
    }
    return (now - behindSeenNanos) / 1_000_000;
  }

  /** This member's snapshots, leadership transfer and membership. */
  public RaftAdmin admin() {
    return admin;
  }

  @Override
  public boolean standForElectionIfLeaderGone(String leaderId) {
    try {
      return EarlyElection.standIfFollowing(server.getDivision(groupId), RaftPeerId.valueOf(leaderId));
    } catch (IOException | RuntimeException e) {
      log.debug("[{}] could not stand for election: {}", config.selfId(), e.toString());
      return false;
    }
  }

  /** Operations waiting for a batch here, to the leader or into an entry. For tests. */
  int queuedOperations() {
    return entries.queued() + forwards.queued();
  }

  /** Batches forwarded to the leader and not answered yet. For tests. */
  int forwardsInFlight() {
    return leaderForwards.inFlight();
  }

  /** First index still in this member's log; grows when a snapshot lets Ratis purge. For tests. */
  long firstLogIndex() {
    try {
      return server.getDivision(groupId).getRaftLog().getStartIndex();
    } catch (IOException e) {
      throw new ConsensusUnavailableException("[" + config.selfId() + "] Raft member not running", e);
    }
  }

  public RaftConfig config() {
    return config;
  }

  /**
   * Stops this member. Ratis takes a last snapshot while stopping, so close the state machine's
   * store only after this returns.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    log.info("[{}] stopping Raft member", config.selfId());
    appliedWaiters.close(() -> stopped("complete"));
    calls.close(() -> stopped("complete"));
    try {
      client.close();
    } catch (IOException e) {
      log.warn("[{}] closing the Raft client failed", config.selfId(), e);
    }
    forwardRpc.close();
    BoundedServerStop.close(config.selfId(), server, SERVER_CLOSE_BOUND_MS, log);
    batchCallbacks.shutdown();
  }

  private RuntimeException translate(String what, Throwable error) {
    if (error instanceof OperationRejectedException || error instanceof ConsensusUnavailableException) {
      return (RuntimeException) error;
    }
    if (closed.get()) {
      return stopped(what);
    }
    return noQuorum(what, error);
  }

  private ConsensusUnavailableException noQuorum(String what, Throwable cause) {
    String leader = closed.get() ? "unknown, member stopped" : status().leaderId();
    leader = leader.isEmpty() ? "none" : leader;
    return new ConsensusUnavailableException("[" + config.selfId() + "] the Raft group has no quorum: could not "
        + what + " within " + config.requestTimeout().toMillis() + " ms; " + membersNeeded()
        + " (leader: " + leader + "). Bring members back up"
        + ("commit".equals(what) ? "; the write may still be applied once the group recovers, so retry"
            + " idempotently" : "")
        + (cause == null ? "" : " (" + cause + ")"), cause);
  }

  /** "Q of N members must be up", counting the members the group has now. */
  private String membersNeeded() {
    int members = currentPeers().size();
    return RaftConfig.quorumOf(members) + " of " + members + " members must be up";
  }

  /**
   * The group's voting members now (membership changes move them), by peer id; the start-up list
   * while this member does not run (before its start, after its stop).
   */
  private Map<String, String> currentPeers() {
    try {
      Map<String, String> current = admin.currentPeers();
      return current.isEmpty() ? config.peers() : current;
    } catch (RuntimeException e) { // an error message built from this must not fail itself
      return config.peers();
    }
  }

  private ConsensusUnavailableException stopped(String what) {
    return new ConsensusUnavailableException(
        "[" + config.selfId() + "] this Raft member is stopped: could not " + what + "; use a running member");
  }

  private static ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
