package dev.nacre.consensus.state;

import dev.nacre.consensus.raft.RaftStatus;
import dev.nacre.consensus.raft.ReplicatedLog;
import java.util.concurrent.CompletableFuture;

/**
 * A domain's view of the shared replicated log: what it submits is marked with its kind byte, so
 * that the {@link DomainStateMachine} hands it back to that domain. Closing the view does not
 * close the log, which belongs to the node.
 */
public final class DomainLog implements ReplicatedLog {
  private final byte kind;
  private final ReplicatedLog log;

  public DomainLog(StateDomain domain, ReplicatedLog log) {
    this.kind = domain.kind();
    this.log = log;
  }

  @Override
  public CompletableFuture<byte[]> submit(byte[] operation) {
    byte[] marked = new byte[operation.length + 1];
    marked[0] = kind;
    System.arraycopy(operation, 0, marked, 1, operation.length);
    return log.submit(marked);
  }

  @Override
  public CompletableFuture<Void> readBarrier() {
    return log.readBarrier();
  }

  @Override
  public RaftStatus status() {
    return log.status();
  }

  @Override
  public boolean standForElectionIfLeaderGone(String leaderId) {
    return log.standForElectionIfLeaderGone(leaderId);
  }

  @Override
  public void close() {
    // The shared log is closed by its owner.
  }
}
