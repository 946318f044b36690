package dev.nacre.consensus.raft;

import java.nio.file.Path;
import java.util.List;

/**
 * What a user of {@link ReplicatedLog} supplies: deterministic application of committed
 * operations to durable state, and snapshots of that state.
 *
 * <p>Calls come from one thread at a time, in log order, except {@link #writeSnapshot}, which may
 * run on another thread while entries are applied. After a restart or a snapshot the log may replay
 * entries at or below {@link #lastAppliedIndex()}: the implementation skips them, so an entry is
 * never applied twice.
 */
public interface ReplicatedStateMachine {

  /**
   * Applies the operations of the committed entry at {@code index}, in order; each one sees the
   * effects of those before it. Must be deterministic: every member applies the same bytes in the
   * same order and must reach the same state and outcomes. An operation that is invalid is refused
   * with {@link Outcome#rejected} and changes nothing; the others still apply. The effects of all
   * of them and the new {@link #lastAppliedIndex()} must become durable together (all or none), so
   * that a replay after a crash neither loses nor repeats part of an entry.
   *
   * @return one outcome per operation, in the same order
   */
  List<Outcome> apply(long index, List<byte[]> operations);

  /** The highest index whose effects are durable, 0 when nothing has been applied. */
  long lastAppliedIndex();

  /** The term of the entry at {@link #lastAppliedIndex()}, 0 when nothing has been applied. */
  long lastAppliedTerm();

  /** Records the term of the entries about to be applied, so snapshots can name it. */
  void setCurrentTerm(long term);

  /**
   * Writes a consistent copy of the state into an empty folder: the effects of every entry up to
   * some index at or after {@link #lastAppliedIndex()} at the time of the call, and that index, as
   * one point in time. May run on another thread while later entries are applied (a RocksDB
   * checkpoint does); never alongside {@link #installSnapshot}.
   */
  void writeSnapshot(Path emptyDir);

  /** Replaces the whole state with a snapshot written by {@link #writeSnapshot}. */
  void installSnapshot(Path snapshotDir);
}
