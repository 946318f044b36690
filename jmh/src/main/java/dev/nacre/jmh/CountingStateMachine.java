package dev.nacre.jmh;

import dev.nacre.consensus.raft.Outcome;
import dev.nacre.consensus.raft.ReplicatedStateMachine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The consensus benchmarks' state machine: applies by counting, so that what is measured is the
 * replicated log alone. A snapshot is the count in a file (written off the apply thread, hence
 * the locks).
 */
final class CountingStateMachine implements ReplicatedStateMachine {
  private long applied;
  private long appliedTerm;
  private long currentTerm;
  private long count;

  @Override
  public synchronized List<Outcome> apply(long index, List<byte[]> operations) {
    count += operations.size();
    applied = index;
    appliedTerm = currentTerm;
    return operations.stream().map(op -> Outcome.ok()).toList();
  }

  @Override
  public synchronized long lastAppliedIndex() {
    return applied;
  }

  @Override
  public synchronized long lastAppliedTerm() {
    return appliedTerm;
  }

  @Override
  public void setCurrentTerm(long term) {
    currentTerm = term;
  }

  @Override
  public synchronized void writeSnapshot(Path emptyDir) {
    try {
      Files.writeString(emptyDir.resolve("count"), applied + " " + appliedTerm + " " + count);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public synchronized void installSnapshot(Path snapshotDir) {
    try {
      String[] parts = Files.readString(snapshotDir.resolve("count")).split(" ");
      applied = Long.parseLong(parts[0]);
      appliedTerm = Long.parseLong(parts[1]);
      count = Long.parseLong(parts[2]);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
