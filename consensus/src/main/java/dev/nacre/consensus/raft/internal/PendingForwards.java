package dev.nacre.consensus.raft.internal;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * The batches this member has forwarded to the leader and not yet seen answered, so that when it
 * becomes the leader itself it commits them at once instead of waiting for the Raft client to find
 * it.
 *
 * <p>Why: a forward sent while the old leader was dying goes wherever Ratis' client guesses next.
 * After a connection failure it picks a member at random, the dead one included, and sleeps
 * between tries; a just-elected leader also refuses it until it is ready, which closed the
 * client's stream and sent it guessing again. Measured after {@code kill -9} of a 3-node
 * cluster's leader: the survivor that won the election answered a write it held about 300 ms
 * after it led.
 *
 * <p>Safe because a forwarded operation keeps its identity: the local commit and the client's
 * copy, wherever it lands, meet in {@link ForwardedRequests}, which commits an operation once and
 * answers the other copy with its result. A local commit that fails (this member lost the
 * leadership again) is dropped: the client's copy still answers.
 */
public final class PendingForwards {
  /** Compared by identity: a set entry must not hash its operations on every forward. */
  private static final class Pending {
    final List<TrackedOperation> operations;
    final CompletableFuture<List<byte[]>> result = new CompletableFuture<>();

    Pending(List<TrackedOperation> operations) {
      this.operations = operations;
    }
  }

  private final Set<Pending> pending = ConcurrentHashMap.newKeySet();
  private final ForwardedRequests forwarded;
  private final Executor executor;

  /** @param executor runs the local commits, off the thread that reports the leader change */
  public PendingForwards(ForwardedRequests forwarded, Executor executor) {
    this.forwarded = forwarded;
    this.executor = executor;
  }

  /**
   * Tracks a forward of {@code operations}; the returned future completes as {@code viaClient}
   * does, or earlier with the results of a local commit after {@link #becameLeader}.
   */
  public CompletableFuture<List<byte[]>> track(List<TrackedOperation> operations,
      CompletableFuture<List<byte[]>> viaClient) {
    Pending entry = new Pending(operations);
    pending.add(entry);
    viaClient.whenComplete((results, error) -> {
      pending.remove(entry);
      if (error != null) {
        entry.result.completeExceptionally(error);
      } else {
        entry.result.complete(results);
      }
    });
    return entry.result;
  }

  /** This member now leads: commits every forward still pending here too; the first answer wins. */
  public void becameLeader() {
    for (Pending entry : pending) {
      executor.execute(() -> forwarded.results(entry.operations).thenAccept(entry.result::complete));
    }
  }

  /** Forwards not answered yet. For tests. */
  public int size() {
    return pending.size();
  }
}
