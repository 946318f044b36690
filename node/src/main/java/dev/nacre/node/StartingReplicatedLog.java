package dev.nacre.node;

import dev.nacre.consensus.raft.ConsensusUnavailableException;
import dev.nacre.consensus.raft.RaftAdmin;
import dev.nacre.consensus.raft.RaftMembers;
import dev.nacre.consensus.raft.RaftStatus;
import dev.nacre.consensus.raft.RatisReplicatedLog;
import dev.nacre.consensus.raft.ReplicatedLog;
import dev.nacre.node.config.MemberAddress;
import dev.nacre.node.status.RaftAdminApi;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * The Raft member while it starts on another thread: a node's start builds its other parts (the
 * ephemeral registry, the HTTP port, the peer port and the Distro load) meanwhile, which halves
 * the start on two cores (the Raft start is mostly class loading and TLS setup). Calls made
 * before the member runs wait for it; its status says STARTING until then. Thread-safe.
 */
final class StartingReplicatedLog implements ReplicatedLog, RaftAdminApi.RaftCommands {
  private final String selfId;
  private final CompletableFuture<RatisReplicatedLog> started;

  StartingReplicatedLog(String selfId, CompletableFuture<RatisReplicatedLog> started) {
    this.selfId = selfId;
    this.started = started;
  }

  /** The running member; waits for its start and throws what failed it. */
  RatisReplicatedLog awaitStarted() {
    try {
      return started.join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : e;
    }
  }

  @Override
  public CompletableFuture<byte[]> submit(byte[] operation) {
    return whenStarted(log -> log.submit(operation));
  }

  @Override
  public CompletableFuture<Void> readBarrier() {
    return whenStarted(ReplicatedLog::readBarrier);
  }

  @Override
  public RaftStatus status() {
    RatisReplicatedLog log = started.getNow(null);
    return log != null ? log.status() : new RaftStatus(selfId, "STARTING", "", 0, 0, 0);
  }

  /** @see RatisReplicatedLog#leaderChanges() (0 before the member runs) */
  long leaderChanges() {
    RatisReplicatedLog log = started.getNow(null);
    return log == null ? 0 : log.leaderChanges();
  }

  /** The running member; empty while it starts or when its start failed. */
  /** The members in the Raft configuration; empty until the Raft member runs. */
  Optional<RaftMembers> members() {
    return running().map(running -> running.admin().members());
  }

  Optional<RatisReplicatedLog> running() {
    return started.isDone() && !started.isCompletedExceptionally() ? Optional.of(started.join()) : Optional.empty();
  }

  /** @see RaftAdmin#takeSnapshot() */
  @Override
  public long takeSnapshot() {
    return awaitStarted().admin().takeSnapshot();
  }

  /** @see RaftAdmin#transferLeadership(String) */
  @Override
  public void transferLeadership(MemberAddress target) {
    awaitStarted().admin().transferLeadership(target.raftPeerId());
  }

  /** The latest Raft snapshot; empty before the member runs or before its first snapshot. */
  Optional<RaftAdmin.SnapshotStatus> latestSnapshot() {
    RatisReplicatedLog log = started.getNow(null);
    return log == null ? Optional.empty() : log.admin().latestSnapshot();
  }

  @Override
  public boolean standForElectionIfLeaderGone(String leaderId) {
    RatisReplicatedLog log = started.getNow(null);
    return log != null && log.standForElectionIfLeaderGone(leaderId);
  }

  /** Stops the member, once its start has ended (it cannot be stopped halfway). */
  @Override
  public void close() {
    try {
      started.join().close();
    } catch (CompletionException e) {
      // it never ran: nothing to stop
    }
  }

  private <T> CompletableFuture<T> whenStarted(Function<RatisReplicatedLog, CompletableFuture<T>> call) {
    return started.handle((log, error) -> error == null ? call.apply(log)
            : CompletableFuture.<T>failedFuture(new ConsensusUnavailableException(
                "the Raft member of " + selfId + " did not start: " + error.getMessage(), error)))
        .thenCompose(f -> f);
  }
}
