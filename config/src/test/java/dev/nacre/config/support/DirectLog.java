package dev.nacre.config.support;

import dev.nacre.consensus.raft.ConsensusUnavailableException;
import dev.nacre.consensus.raft.OperationRejectedException;
import dev.nacre.consensus.raft.Outcome;
import dev.nacre.consensus.raft.RaftStatus;
import dev.nacre.consensus.raft.ReplicatedLog;
import dev.nacre.consensus.raft.ReplicatedStateMachine;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A one-member log for tests: each submit is applied at once with the next index. While {@link
 * #hold held}, submits wait and {@link #flush} applies them all as one entry (as a batching
 * leader does). It can be made unavailable (fails like a group without quorum).
 */
public final class DirectLog implements ReplicatedLog {
  private final ReplicatedStateMachine machine;
  private final List<byte[]> held = new ArrayList<>();
  private final List<CompletableFuture<byte[]>> waiting = new ArrayList<>();
  private long nextIndex;
  private boolean holding;
  private volatile boolean unavailable;
  private int submits;

  public DirectLog(ReplicatedStateMachine machine) {
    this.machine = machine;
    this.nextIndex = machine.lastAppliedIndex() + 1;
  }

  public void setUnavailable(boolean value) {
    unavailable = value;
  }

  public synchronized void hold() {
    holding = true;
  }

  /** Applies what was submitted while held, as one entry. */
  public synchronized void flush() {
    holding = false;
    List<Outcome> outcomes = machine.apply(nextIndex++, List.copyOf(held));
    for (int i = 0; i < outcomes.size(); i++) {
      complete(waiting.get(i), outcomes.get(i));
    }
    held.clear();
    waiting.clear();
  }

  /** Operations that reached the log (not those refused before it). */
  public synchronized int submits() {
    return submits;
  }

  @Override
  public synchronized CompletableFuture<byte[]> submit(byte[] operation) {
    if (unavailable) {
      return CompletableFuture.failedFuture(new ConsensusUnavailableException("no quorum: 1 of 3 members reachable"));
    }
    submits++;
    CompletableFuture<byte[]> result = new CompletableFuture<>();
    if (holding) {
      held.add(operation.clone());
      waiting.add(result);
      return result;
    }
    try {
      complete(result, machine.apply(nextIndex++, List.of(operation)).get(0));
    } catch (RuntimeException e) {
      result.completeExceptionally(e);
    }
    return result;
  }

  private static void complete(CompletableFuture<byte[]> result, Outcome outcome) {
    if (outcome.isRejected()) {
      result.completeExceptionally(new OperationRejectedException(outcome.rejection()));
    } else {
      result.complete(outcome.result());
    }
  }

  @Override
  public CompletableFuture<Void> readBarrier() {
    return unavailable ? CompletableFuture.failedFuture(new ConsensusUnavailableException("no leader"))
        : CompletableFuture.completedFuture(null);
  }

  @Override
  public RaftStatus status() {
    return new RaftStatus("test", "LEADER", "test", 1, nextIndex - 1, machine.lastAppliedIndex(), 0);
  }

  @Override
  public void close() {}
}
