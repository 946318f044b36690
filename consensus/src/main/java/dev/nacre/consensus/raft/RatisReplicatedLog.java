package dev.nacre.consensus.raft;

import dev.nacre.consensus.raft.internal.AppliedIndexWaiters;
import dev.nacre.consensus.raft.internal.ApplyResult;
import dev.nacre.consensus.raft.internal.BoundedCalls;
import dev.nacre.consensus.raft.internal.EarlyElection;
import dev.nacre.consensus.raft.internal.EntryCodec;
import dev.nacre.consensus.raft.internal.ForwardedRequests;
import dev.nacre.consensus.raft.internal.LeaderEntries;
import dev.nacre.consensus.raft.internal.LeaderWatch;
import dev.nacre.consensus.raft.internal.MembershipChange;
import dev.nacre.consensus.raft.internal.OperationBatcher;
import dev.nacre.consensus.raft.internal.RatisProperties;
import dev.nacre.consensus.raft.internal.RenewableClient;
import dev.nacre.consensus.raft.internal.ReadIndexBarrier;
import dev.nacre.consensus.tls.SecretDerivedTls;
import dev.nacre.consensus.raft.internal.StateMachineAdapter;
import dev.nacre.consensus.raft.internal.TrackedOperation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftConfiguration;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.SnapshotInfo;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link ReplicatedLog} on one Apache Ratis group over gRPC: a Raft server for this member, a client
 * that appends entries while this member leads and sends read barriers to it, and a client that
 * forwards writes to the leader while another member leads. Every call is bounded
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
  private final RenewableClient client;
  /**
   * Carries batches to the leader. Not {@link #client}: Ratis answers one client's requests in
   * order, so a member that forwards to itself (it became leader while its forward was in flight)
   * would have the forward's answer wait for the entry the forward itself is waiting for.
   */
  private final RenewableClient forwarder;
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
  private final ReadIndexBarrier readIndex;
  private final AtomicBoolean closed = new AtomicBoolean();

  private RatisReplicatedLog(RaftConfig config, ReplicatedStateMachine stateMachine) throws IOException {
    this.config = config;
    this.groupId = RaftGroupId.valueOf(UUID.nameUUIDFromBytes(config.groupId().getBytes(StandardCharsets.UTF_8)));
    this.selfId = RaftPeerId.valueOf(config.selfId());
    this.appliedWaiters = new AppliedIndexWaiters();
    this.leaderWatch = new LeaderWatch();
    List<RaftPeer> peers = config.peers().entrySet().stream()
        .map(e -> RaftPeer.newBuilder().setId(e.getKey()).setAddress(e.getValue()).build())
        .toList();
    this.group = RaftGroup.valueOf(groupId, peers);
    this.parameters = RatisProperties.parameters(!config.authenticated() ? null
        : config.tlsFiles() != null ? config.tlsFiles().grpcTlsConfig()
        : SecretDerivedTls.issue(config.clusterSecret(), config.selfId(), config.selfHost()).grpcTlsConfig(),
        config.handlersOnTransportThreads());
    this.calls = new BoundedCalls(config.selfId());
    this.batchCallbacks = Executors.newSingleThreadExecutor(daemon("nacre-raft-batch-" + config.selfId()));
    this.forwardOrigin = config.selfId() + "/" + UUID.randomUUID(); // the leader reads the peer id back
    this.entries = new OperationBatcher<>(config.batchesInFlight(), config.maxBatchOperations(),
        config.batchLinger().toNanos(), this::appendEntry,
        batchCallbacks);
    this.forwards = new OperationBatcher<>(FORWARDS_IN_FLIGHT, config.maxBatchOperations(), 0, this::forwardToLeader,
        batchCallbacks);
    ForwardedRequests forwarded = new ForwardedRequests(entries::submit, appliedWaiters::applied, REMEMBERED_FORWARDS);
    this.server = RaftServer.newBuilder()
        .setServerId(selfId)
        .setGroup(group)
        .setProperties(RatisProperties.server(config))
        .setParameters(parameters)
        .setStateMachine(new StateMachineAdapter(config.selfId(), stateMachine, appliedWaiters, leaderWatch,
            forwarded))
        .setOption(RaftStorage.StartupOption.RECOVER)
        .build();
    this.leaderEntries = new LeaderEntries(server, groupId, selfId, clientIdPrefix(config.selfId()), appliedWaiters,
        forwarded, config.requestTimeout());
    this.client = new RenewableClient(config.selfId(), "entries and reads", this::newClient);
    this.forwarder = new RenewableClient(config.selfId(), "batches forwarded to the leader", this::newClient);
    this.readIndex = new ReadIndexBarrier(client::current, selfId, calls, config.electionTimeoutMax().toMillis());
  }

  /**
   * The high 64 bits of every Raft client id that the member with this peer id uses (the low 64
   * are random, so ids stay unique across renewals). Lets a fault-injecting harness tell which
   * member a client request on the leader comes from; nothing else relies on it.
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

  /**
   * Hands the batch to the leader as a read-only request, which Ratis serves only on the leader
   * (redirecting and retrying through elections like a write; see {@code ForwardedRequests} for
   * repeats), and completes once this member has applied as far as the leader had when it answered.
   */
  private CompletableFuture<List<byte[]>> forwardToLeader(List<TrackedOperation> operations) {
    RaftClient sender = forwarder.current();
    Message forward = Message.valueOf(UnsafeByteOperations.unsafeWrap(EntryCodec.encodeForward(operations)));
    return sender.async().sendReadOnlyNonLinearizable(forward)
        .whenComplete((reply, error) -> forwarder.renewIfDisabled(sender, error))
        .thenCompose(reply -> {
          EntryCodec.Reply answer = EntryCodec.decodeReply(replyContent("commit", reply), operations.size());
          return appliedWaiters.await(answer.appliedIndex()).thenApply(v -> answer.results());
        });
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
              + config.quorumSize() + " of " + config.peers().size() + " members must be up and reachable"));
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

  /**
   * The latest Raft snapshot this member holds: its log index and how long ago it was written
   * (from its folder's time), or empty before the first one.
   */
  public Optional<SnapshotStatus> latestSnapshot() {
    try {
      SnapshotInfo info = server.getDivision(groupId).getStateMachine().getLatestSnapshot();
      if (info == null || info.getFiles() == null || info.getFiles().isEmpty()) {
        return Optional.empty();
      }
      long ageMillis = System.currentTimeMillis()
          - Files.getLastModifiedTime(info.getFiles().get(0).getPath()).toMillis();
      return Optional.of(new SnapshotStatus(info.getIndex(), Math.max(0, ageMillis)));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** @see #latestSnapshot() */
  public record SnapshotStatus(long index, long ageMillis) {}

  /**
   * Has this member write a snapshot of its state now, whatever the automatic threshold says, so
   * that its log can be purged up to it; returns the snapshot's log index. Blocks up to the
   * request timeout.
   */
  public long takeSnapshot() {
    try {
      RaftClientReply reply = client.current().getSnapshotManagementApi(selfId)
          .create(true, config.requestTimeout().toMillis());
      if (!reply.isSuccess()) {
        throw new ConsensusUnavailableException("[" + config.selfId() + "] the Raft member did not write a snapshot: "
            + reply.getException() + "; check its log and the free space of " + config.storageDir(), reply.getException());
      }
      return reply.getLogIndex();
    } catch (IOException e) {
      throw new ConsensusUnavailableException("[" + config.selfId() + "] could not ask the Raft member for a snapshot"
          + " within " + config.requestTimeout().toMillis() + " ms (" + e.getMessage() + ")", e);
    }
  }

  /**
   * Asks the leader to hand leadership to the member {@code peerId} (a configured member) and
   * returns once that member leads. Blocks up to the request timeout; fails when the group has no
   * leader, the member is not up to date or does not answer.
   */
  public void transferLeadership(String peerId) {
    Map<String, String> peers = currentPeers();
    if (!peers.containsKey(peerId)) {
      throw new IllegalArgumentException(peerId + " is not a member of the Raft group; members: " + peers.keySet());
    }
    try {
      RaftClientReply reply = client.current().admin().transferLeadership(RaftPeerId.valueOf(peerId),
          config.requestTimeout().toMillis());
      if (!reply.isSuccess()) {
        throw new ConsensusUnavailableException("[" + config.selfId() + "] leadership did not move to " + peerId + ": "
            + reply.getException(), reply.getException());
      }
    } catch (IOException e) {
      throw new ConsensusUnavailableException("[" + config.selfId() + "] leadership did not move to " + peerId
          + " within " + config.requestTimeout().toMillis() + " ms (" + e.getMessage() + "); is it up and caught up?", e);
    }
  }

  /**
   * The group's voting members as this member knows them (peer id to Raft address): from the
   * configuration in its log once it has one (it survives restarts), else the configured peers.
   * While a change is under way, the members it moves to.
   */
  public Map<String, String> currentPeers() {
    return members().peers();
  }

  /** As {@link #currentPeers()}, with the log index of the configuration they come from. */
  public RaftMembers members() {
    try {
      RaftConfiguration conf = server.getDivision(groupId).getRaftConf();
      return new RaftMembers(conf.getLogEntryIndex(), MembershipChange.peersOf(conf));
    } catch (IOException e) {
      throw new ConsensusUnavailableException("[" + config.selfId() + "] Raft member not running", e);
    }
  }

  /**
   * Makes {@code peers} (peer id to {@code host:raftPort}) the group's voting members, through the
   * leader; a new member must already run (with these peers configured) so that it can catch up.
   * Blocks until the change is committed and known here, at most {@code bound}.
   *
   * @throws ConsensusUnavailableException when it did not happen within the bound
   */
  public void changePeers(Map<String, String> peers, Duration bound) {
    if (peers.isEmpty()) {
      throw new IllegalArgumentException("a Raft group needs at least one member");
    }
    new MembershipChange(config.selfId(), this::newClient, () -> {
      try {
        return server.getDivision(groupId).getRaftConf();
      } catch (IOException e) {
        return null;
      }
    }).apply(peers, bound);
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
    client.close();
    forwarder.close();
    closeBounded(server);
    batchCallbacks.shutdown();
  }

  /**
   * Ratis waits for its gRPC server to terminate without a bound; a stream that never ends once
   * hung a node's stop (seen once in a test that stops three members in one JVM). A stop that
   * takes longer than the bound is logged and left to finish (or to the JVM's exit) on its own
   * thread.
   */
  private void closeBounded(RaftServer raftServer) {
    Thread closer = new Thread(() -> closeQuietly("server", raftServer), "nacre-raft-close-" + config.selfId());
    closer.setDaemon(true);
    closer.start();
    try {
      closer.join(SERVER_CLOSE_BOUND_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (closer.isAlive()) {
      log.warn("[{}] the Raft server did not stop within {} ms; going on without waiting for it", config.selfId(),
          SERVER_CLOSE_BOUND_MS);
    }
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

  private byte[] replyContent(String what, RaftClientReply reply) {
    if (!reply.isSuccess()) {
      throw noQuorum(what, reply.getException());
    }
    return reply.getMessage().getContent().toByteArray();
  }

  private ConsensusUnavailableException noQuorum(String what, Throwable cause) {
    String leader = closed.get() ? "unknown, member stopped" : status().leaderId();
    leader = leader.isEmpty() ? "none" : leader;
    return new ConsensusUnavailableException("[" + config.selfId() + "] the Raft group has no quorum: could not "
        + what + " within " + config.requestTimeout().toMillis() + " ms; " + config.quorumSize() + " of "
        + config.peers().size() + " members must be up (leader: " + leader + "). Bring members back up"
        + ("commit".equals(what) ? "; the write may still be applied once the group recovers, so retry"
            + " idempotently" : "")
        + (cause == null ? "" : " (" + cause + ")"), cause);
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

  private void closeQuietly(String what, AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      log.warn("[{}] closing the Raft {} failed", config.selfId(), what, e);
    }
  }
}
