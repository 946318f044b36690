package dev.nacre.consensus.raft;

import java.nio.file.Path;

/**
 * What a user of {@link ReplicatedLog} supplies: deterministic application of committed
 * operations to durable state, and snapshots of that state.
 *
 * <p>Calls come from one thread at a time, in log order. After a restart the log may replay
 * entries at or below {@link #lastAppliedIndex()}: the implementation skips them, so an entry is
 * never applied twice.
 */
public interface ReplicatedStateMachine {

  /**
   * Applies the committed entry at {@code index}. Must be deterministic: every member applies the
   * same bytes in the same order and must reach the same state. Throws
   * {@link OperationRejectedException} to refuse an invalid operation without changing state.
   */
  byte[] apply(long index, byte[] operation);

  /** The highest index whose effects are durable, 0 when nothing has been applied. */
  long lastAppliedIndex();

  /** The term of the entry at {@link #lastAppliedIndex()}, 0 when nothing has been applied. */
  long lastAppliedTerm();

  /** Records the term of the entries about to be applied, so snapshots can name it. */
  void setCurrentTerm(long term);

  /** Writes a consistent copy of the state as of {@link #lastAppliedIndex()} into an empty folder. */
  void writeSnapshot(Path emptyDir);

  /** Replaces the whole state with a snapshot written by {@link #writeSnapshot}. */
  void installSnapshot(Path snapshotDir);
}
