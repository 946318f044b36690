package dev.nacre.consensus.state;

import dev.nacre.consensus.raft.OperationRejectedException;
import dev.nacre.storage.Batch;
import dev.nacre.storage.RocksStore;
import java.util.List;

/**
 * One domain's part of the replicated state (naming, configuration): its column families in the
 * shared RocksDB, how it applies its own operations, and how it reads its state back. A
 * {@link DomainStateMachine} hands each committed operation to the domain whose {@link #kind} it
 * starts with, so the domains share one Raft group and one atomic write per log entry.
 */
public interface StateDomain {

  /** The first byte of every operation of this domain; unique among the domains of a machine. */
  byte kind();

  /** A name for logs and errors ("naming", "config"). */
  String name();

  /** The column families this domain writes; disjoint from every other domain's. */
  List<String> families();

  /**
   * Turns one committed operation, {@code operation} from {@code offset} on (after its kind byte,
   * read in place rather than copied), into RocksDB mutations added to
   * {@code entry} and the in-memory change to make once they are durable, or refuses it. Must be
   * deterministic: the same bytes on the same state give the same effect on every member.
   *
   * @param logIndex the entry's index
   * @param entry what the operations before this one in the same entry wrote; reads of the store
   *     should see it ({@link RocksStore#get(String, byte[], Batch)})
   * @return what to run on the domain's memory after the entry is written
   * @throws OperationRejectedException when the operation is invalid; nothing of it is written
   */
  Applied apply(RocksStore store, long logIndex, byte[] operation, int offset, Batch entry);

  /** Reads this domain's whole state from the store: at start and after a snapshot is installed. */
  void load(RocksStore store);

  /** What one applied operation writes and then does in memory, and the result for its submitter. */
  record Applied(Batch batch, Runnable inMemory, byte[] result) {
    public static Applied of(Batch batch, Runnable inMemory) {
      return new Applied(batch, inMemory, new byte[0]);
    }
  }
}
