package dev.nacre.consensus.raft;

import java.util.concurrent.CompletableFuture;

/**
 * A replicated log of opaque operations (one Raft group), applied in the same order on every
 * member through a {@link ReplicatedStateMachine}.
 *
 * <p>Thread-safe. Operations submitted on a follower are forwarded to the leader.
 */
public interface ReplicatedLog extends AutoCloseable {

  /**
   * Appends an operation and completes with the state machine's result once the entry is
   * committed and applied on this member. Completes exceptionally with
   * {@link ConsensusUnavailableException} when the group cannot commit within the configured
   * bound (no leader, no quorum), and with {@link OperationRejectedException} when the state
   * machine refused the operation.
   */
  CompletableFuture<byte[]> submit(byte[] operation);

  /**
   * Completes once this member has applied everything committed before the call (Raft's read
   * index), so that a read of local state afterwards is linearizable. Fails like {@link #submit}.
   */
  CompletableFuture<Void> readBarrier();

  /** A snapshot of this member's view of the group, for status pages. */
  RaftStatus status();

  /**
   * Stands for election at once if this member still follows {@code leaderId} (a peer id as in
   * {@link RaftStatus#leaderId()}): for a caller that has seen that leader's process gone, so that
   * the group need not wait for an election timeout. Safe on a false alarm (one needless
   * election). Returns whether an election started.
   */
  default boolean standForElectionIfLeaderGone(String leaderId) {
    return false;
  }

  /** Stops this member; pending calls fail with {@link ConsensusUnavailableException}. */
  @Override
  void close();
}
