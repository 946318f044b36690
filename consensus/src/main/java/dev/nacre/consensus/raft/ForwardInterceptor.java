package dev.nacre.consensus.raft;

import java.util.Optional;

/**
 * Sees each batch of operations that another member forwards to this member, on the leader's side,
 * before the batch is handled (and before this member checks that it still leads): to count or
 * audit forwarded writes, or to refuse some.
 *
 * <p>Returning lets the batch go on. Throwing refuses that batch alone: the sender sees the call
 * fail ({@code UNAVAILABLE} on its stream of batches) and tries again as after a broken connection,
 * until its request timeout; nothing of the batch is applied. A call that blocks holds the batch,
 * and with it the thread that handles it: with {@link RaftConfig.HandlerThreads#TRANSPORT} that
 * thread serves other connections too, so run an interceptor that may wait with
 * {@link RaftConfig.HandlerThreads#POOL}.
 *
 * <p>Implementations must be thread-safe: batches from several members arrive at once.
 */
@FunctionalInterface
public interface ForwardInterceptor {

  /** Lets every batch through: what a member runs unless told otherwise. */
  ForwardInterceptor NONE = (selfId, senderId, operations) -> { };

  /**
   * @param selfId this member's Raft peer id
   * @param senderId the Raft peer id of the member that forwarded the batch, as the batch names
   *     it; empty when the batch does not name one
   * @param operations how many operations the batch carries
   */
  void beforeBatch(String selfId, Optional<String> senderId, int operations);
}
