package dev.nacre.naming.support;

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
 * A one-member "log" for tests: each submit is applied at once to the state machine with the next
 * index, and recorded. It can be made unavailable (fails like a group without quorum) or silent
 * (never answers, like a partitioned leader) to test the CP failure paths.
 */
public final class DirectReplicatedLog implements ReplicatedLog {
  public enum Mode { AVAILABLE, UNAVAILABLE, SILENT }

  private final ReplicatedStateMachine stateMachine;
  private final List<byte[]> entries = new ArrayList<>();
  private long nextIndex;
  private volatile Mode mode = Mode.AVAILABLE;
  private int barriers;

  public DirectReplicatedLog(ReplicatedStateMachine stateMachine) {
    this.stateMachine = stateMachine;
    this.nextIndex = stateMachine.lastAppliedIndex() + 1;
  }

  public void setMode(Mode value) {
    mode = value;
  }

  @Override
  public synchronized CompletableFuture<byte[]> submit(byte[] operation) {
    switch (mode) {
      case UNAVAILABLE:
        return CompletableFuture.failedFuture(
            new ConsensusUnavailableException("no quorum: 1 of 3 members reachable"));
      case SILENT:
        return new CompletableFuture<>();
      default:
        break;
    }
    entries.add(operation.clone());
    try {
      Outcome outcome = stateMachine.apply(nextIndex++, List.of(operation)).get(0);
      return outcome.isRejected()
          ? CompletableFuture.failedFuture(new OperationRejectedException(outcome.rejection()))
          : CompletableFuture.completedFuture(outcome.result());
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public synchronized CompletableFuture<Void> readBarrier() {
    barriers++;
    return switch (mode) {
      case UNAVAILABLE -> CompletableFuture.failedFuture(
          new ConsensusUnavailableException("no leader"));
      case SILENT -> new CompletableFuture<>();
      default -> CompletableFuture.completedFuture(null);
    };
  }

  /** Every entry submitted so far, in log order (index = position + first index). */
  public synchronized List<byte[]> entries() {
    return List.copyOf(entries);
  }

  public synchronized int barriers() {
    return barriers;
  }

  @Override
  public RaftStatus status() {
    return new RaftStatus("test", "LEADER", "test", 1, nextIndex - 1, stateMachine.lastAppliedIndex());
  }

  @Override
  public void close() {}
}
