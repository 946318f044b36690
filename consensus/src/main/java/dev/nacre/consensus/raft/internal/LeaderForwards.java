package dev.nacre.consensus.raft.internal;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The batches a member that does not lead hands to the leader, each sent to the leader this member
 * knows of and sent again, with the same operation identities, whenever that changes or an attempt
 * fails, until it is answered or its deadline passes. When this member itself becomes the leader,
 * it commits the batches still in flight at once.
 *
 * <p>Sending again is safe because a forwarded operation keeps its identity: every copy, on whichever
 * leader, meets the others in {@link ForwardedRequests}, which commits an operation once and answers
 * the other copies with its result; and a leader appends only to its own log ({@link LeaderEntries}),
 * so a copy held on a deposed leader never commits.
 *
 * <p>Why not Ratis' client, which did this until 2026-12-05: it picks a member at random after a
 * failed attempt (the dead leader included) and sleeps between tries, so a member that lost its
 * leader found the new one 100-300 ms after the election; and every forward crossed its ordered
 * request stream, per-request timers and reply threads.
 */
public final class LeaderForwards {
  /** How often a batch is tried again while no leader is known or the last attempt failed. */
  static final long RETRY_MS = 20;

  /** Sends an encoded forward to the member with the given id; completes with its encoded reply. */
  @FunctionalInterface
  public interface Transport {
    CompletableFuture<byte[]> send(String memberId, byte[] forward, long timeoutNanos);
  }

  private final String selfId;
  private final Supplier<Optional<String>> leader;
  private final Transport transport;
  private final Function<List<TrackedOperation>, CompletableFuture<List<byte[]>>> commitHere;
  private final AppliedIndexWaiters appliedWaiters;
  private final long timeoutNanos;
  private final Executor retries;
  private final Executor resends;
  private final Set<Forward> inFlight = ConcurrentHashMap.newKeySet();

  /** One batch on its way; compared by identity. */
  private final class Forward {
    final List<TrackedOperation> operations;
    final byte[] encoded;
    final long deadlineNanos;
    final CompletableFuture<List<byte[]>> result = new CompletableFuture<>();
    /** Where the latest attempt went (null: none yet, or no leader known). */
    volatile String sentTo;
    /** Only the latest attempt's failure schedules a retry, so that attempts never multiply. */
    final AtomicInteger attempts = new AtomicInteger();

    Forward(List<TrackedOperation> operations) {
      this.operations = operations;
      this.encoded = EntryCodec.encodeForward(operations);
      this.deadlineNanos = System.nanoTime() + timeoutNanos;
    }
  }

  /**
   * @param leader the leader this member knows of
   * @param commitHere commits a batch on this member while it leads ({@link ForwardedRequests#results})
   * @param timeoutNanos how long a batch may take, over all its attempts
   * @param resends runs the attempts a leader change starts, off the thread that reports it
   */
  public LeaderForwards(String selfId, Supplier<Optional<String>> leader, Transport transport,
      Function<List<TrackedOperation>, CompletableFuture<List<byte[]>>> commitHere,
      AppliedIndexWaiters appliedWaiters, long timeoutNanos, Executor resends) {
    this.selfId = selfId;
    this.leader = leader;
    this.transport = transport;
    this.commitHere = commitHere;
    this.appliedWaiters = appliedWaiters;
    this.timeoutNanos = timeoutNanos;
    this.retries = CompletableFuture.delayedExecutor(RETRY_MS, TimeUnit.MILLISECONDS);
    this.resends = resends;
  }

  /**
   * Forwards {@code operations}; completes with their tagged results once this member has applied
   * as far as the leader had when it answered, or fails once the timeout has passed.
   */
  public CompletableFuture<List<byte[]>> forward(List<TrackedOperation> operations) {
    Forward f = new Forward(operations);
    inFlight.add(f);
    f.result.whenComplete((results, error) -> inFlight.remove(f));
    send(f);
    return f.result;
  }

  /** A new leader is known: batches last sent elsewhere (or nowhere) go to it now. */
  public void leaderChanged(String leaderId) {
    if (leaderId == null) {
      return;
    }
    for (Forward f : inFlight) {
      if (!leaderId.equals(f.sentTo)) {
        resends.execute(() -> send(f));
      }
    }
  }

  /** Batches not answered yet. For tests. */
  public int inFlight() {
    return inFlight.size();
  }

  private void send(Forward f) {
    if (f.result.isDone()) {
      return;
    }
    long remaining = f.deadlineNanos - System.nanoTime();
    if (remaining <= 0) {
      f.result.completeExceptionally(new TimeoutException("no leader answered the forwarded batch in time"));
      return;
    }
    int attempt = f.attempts.incrementAndGet();
    String to = leader.get().orElse(null);
    f.sentTo = to;
    if (to == null) {
      retryLater(f, attempt);
    } else if (to.equals(selfId)) {
      // Committed here, answered when applied here: no applied index to wait for.
      commitHere.apply(f.operations).whenComplete((results, error) -> {
        if (error == null) {
          f.result.complete(results);
        } else {
          retryLater(f, attempt); // this member stopped leading meanwhile
        }
      });
    } else {
      transport.send(to, f.encoded, remaining).whenComplete((reply, error) -> {
        if (error != null) {
          retryLater(f, attempt);
          return;
        }
        answered(f, reply);
      });
    }
  }

  private void answered(Forward f, byte[] reply) {
    try {
      EntryCodec.Reply answer = EntryCodec.decodeReply(reply, f.operations.size());
      appliedWaiters.await(answer.appliedIndex()).whenComplete((v, error) -> {
        if (error != null) {
          f.result.completeExceptionally(error);
        } else {
          f.result.complete(answer.results());
        }
      });
    } catch (RuntimeException e) {
      f.result.completeExceptionally(e);
    }
  }

  private void retryLater(Forward f, int attempt) {
    if (f.attempts.get() == attempt && !f.result.isDone()) {
      retries.execute(() -> {
        if (f.attempts.get() == attempt) {
          send(f);
        }
      });
    }
  }
}
