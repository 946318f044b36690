package dev.nacre.consensus.raft.internal;

import dev.nacre.consensus.raft.Outcome;
import dev.nacre.consensus.raft.ReplicatedStateMachine;
import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bridges Ratis to a {@link ReplicatedStateMachine}: applies committed entries in order (skipping
 * those already durable), snapshots through {@link CheckpointSnapshotStorage} (in the background
 * when Ratis' threshold asks: {@link BackgroundSnapshots}), and loads a snapshot that the leader
 * installed. Ratis calls apply, snapshot and reinitialize from one thread.
 */
public final class StateMachineAdapter extends BaseStateMachine {
  private static final Logger log = LoggerFactory.getLogger(StateMachineAdapter.class);
  private final String selfId;
  private final ReplicatedStateMachine delegate;
  private final CheckpointSnapshotStorage storage;
  private final AppliedIndexWaiters appliedWaiters;
  private final LeaderWatch leaderWatch;
  private final ForwardedRequests forwarded;
  private final BackgroundSnapshots snapshots;
  /** Ratis' automatic snapshot threshold, in entries; below it a snapshot was asked for outright. */
  private final long snapshotThreshold;

  /**
   * @param forwarded told the results of the forwarded operations of every entry applied here
   * @param snapshotThreshold the entries between automatic snapshots (Ratis' auto-trigger threshold)
   */
  public StateMachineAdapter(String selfId, ReplicatedStateMachine delegate, AppliedIndexWaiters appliedWaiters,
      LeaderWatch leaderWatch, ForwardedRequests forwarded, long snapshotThreshold) {
    this.selfId = selfId;
    this.forwarded = forwarded;
    this.delegate = delegate;
    this.storage = new CheckpointSnapshotStorage(selfId);
    this.snapshots = new BackgroundSnapshots(selfId, storage);
    this.snapshotThreshold = snapshotThreshold;
    this.appliedWaiters = appliedWaiters;
    this.leaderWatch = leaderWatch;
  }

  @Override
  public StateMachineStorage getStateMachineStorage() {
    return storage;
  }

  @Override
  public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
    super.initialize(server, groupId, raftStorage);
    storage.init(raftStorage);
    loadLatestSnapshot(false);
    getLifeCycle().transition(LifeCycle.State.STARTING);
    getLifeCycle().transition(LifeCycle.State.RUNNING);
  }

  /** Ratis pauses the state machine before it swaps in a snapshot received from the leader. */
  @Override
  public synchronized void pause() {
    snapshots.awaitIdle(); // Ratis replaces the snapshot folder next
    if (getLifeCycleState() == LifeCycle.State.RUNNING) {
      getLifeCycle().transition(LifeCycle.State.PAUSING);
      getLifeCycle().transition(LifeCycle.State.PAUSED);
    }
  }

  /** Called by Ratis after it replaced the state machine folder with the leader's snapshot. */
  @Override
  public synchronized void reinitialize() throws IOException {
    snapshots.awaitIdle();
    loadLatestSnapshot(true);
    if (getLifeCycleState() == LifeCycle.State.PAUSED) {
      getLifeCycle().transition(LifeCycle.State.STARTING);
      getLifeCycle().transition(LifeCycle.State.RUNNING);
    }
  }

  private void loadLatestSnapshot(boolean installedFromLeader) throws IOException {
    Optional<CheckpointSnapshotStorage.Snapshot> found = storage.refresh();
    if (found.isEmpty()) {
      log.info("[{}] no snapshot; state machine is at index {}", selfId, delegate.lastAppliedIndex());
      return;
    }
    CheckpointSnapshotStorage.Snapshot snapshot = found.get();
    if (installedFromLeader) {
      storage.removeTransferDigests(snapshot);
    }
    // Behind the snapshot (wiped store, or a crash right after Ratis swapped folders): load it.
    if (delegate.lastAppliedIndex() < snapshot.dataIndex()) {
      log.info("[{}] installing snapshot {} (state machine was at index {})",
          selfId, snapshot.dir().getFileName(), delegate.lastAppliedIndex());
      delegate.installSnapshot(snapshot.dataDir());
    }
    // Ratis replays the log after this index; entries the store already holds are skipped in apply.
    updateLastAppliedTermIndex(snapshot.termIndex());
    appliedWaiters.advance(snapshot.termIndex().getIndex());
    log.info("[{}] loaded snapshot {}; state machine at index {}",
        selfId, snapshot.termIndex(), delegate.lastAppliedIndex());
  }

  @Override
  public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
    LogEntryProto entry = trx.getLogEntry();
    long index = entry.getIndex();
    List<TrackedOperation> tracked = EntryCodec.decodeEntry(entry.getStateMachineLogEntry().getLogData());
    List<byte[]> operations = tracked.stream().map(TrackedOperation::operation).toList();
    List<Outcome> outcomes;
    if (index <= delegate.lastAppliedIndex()) {
      log.debug("[{}] skipping entry {}: already durable", selfId, index);
      outcomes = Collections.nCopies(operations.size(), Outcome.ok());
    } else {
      delegate.setCurrentTerm(entry.getTerm());
      outcomes = applyToDelegate(index, operations);
    }
    // Skipped entries too: a member that restarted and then leads must still know, as Ratis'
    // retry cache does for writes, which forwarded operations its log already holds.
    forwarded.applied(tracked, outcomes); // before the index advances: see ForwardedRequests
    updateLastAppliedTermIndex(entry.getTerm(), index);
    appliedWaiters.advance(index);
    return CompletableFuture.completedFuture(
        Message.valueOf(UnsafeByteOperations.unsafeWrap(EntryCodec.encodeOutcomes(outcomes))));
  }

  private List<Outcome> applyToDelegate(long index, List<byte[]> operations) {
    try {
      List<Outcome> outcomes = delegate.apply(index, operations);
      if (outcomes.size() != operations.size()) {
        throw new IllegalStateException("the state machine returned " + outcomes.size() + " outcomes for "
            + operations.size() + " operations of entry " + index);
      }
      return outcomes;
    } catch (RuntimeException e) {
      // Skipping the entry would let this member diverge; Ratis stops the member instead.
      log.error("[{}] the state machine failed to apply entry {}; this member stops so that it does"
          + " not diverge. Fix the cause (disk full? corrupt store?) and restart it: it replays from"
          + " its last durable index.", selfId, index, e);
      throw e;
    }
  }

  @Override
  public void notifyTermIndexUpdated(long term, long index) {
    // Configuration and leader no-op entries: nothing to apply, but they advance the index.
    super.notifyTermIndexUpdated(term, index);
    appliedWaiters.advance(index);
  }

  @Override
  public long takeSnapshot() throws IOException {
    TermIndex last = getLastAppliedTermIndex();
    if (last == null || last.getIndex() <= 0) {
      return RaftLog.INVALID_LOG_INDEX;
    }
    long dataIndex = delegate.lastAppliedIndex();
    if (last.getIndex() - storage.latestIndex() < snapshotThreshold) {
      // Not Ratis' threshold: an operator's request or a stop, which want a snapshot of now.
      return snapshots.writeNow(last, dataIndex, delegate::writeSnapshot);
    }
    return snapshots.request(last, dataIndex, delegate::writeSnapshot);
  }

  /** Ratis closes the state machine when the member stops; the store must outlive the snapshot. */
  @Override
  public void close() {
    snapshots.close();
  }

  @Override
  public CompletableFuture<Message> query(Message request) {
    if (!request.getContent().isEmpty()) {
      return CompletableFuture.failedFuture(new IllegalArgumentException("unexpected read-only request of "
          + request.getContent().size() + " bytes; do the members run different versions?"));
    }
    // A read barrier only needs Ratis to wait for the read index; the caller reads local state.
    return CompletableFuture.completedFuture(Message.EMPTY);
  }

  @Override
  public void notifyLeaderChanged(RaftGroupMemberId groupMemberId, RaftPeerId newLeaderId) {
    String leader = newLeaderId == null ? null : newLeaderId.toString();
    log.info("[{}] leader is now {}", selfId, leader == null ? "unknown" : leader);
    leaderWatch.update(leader);
  }
}
