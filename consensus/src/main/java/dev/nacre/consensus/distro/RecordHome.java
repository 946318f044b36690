package dev.nacre.consensus.distro;

import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * Where the application keeps the records of some keys itself, so that a record has one home:
 * the replicator ranks, replicates, digests and snapshots those keys by reading and writing the
 * home instead of holding a copy. Keys the home does not take stay in the replicator's own store.
 *
 * <p>The home holds at most one record per key, live or tombstone, with its owner and revision.
 * It writes this member's own records itself, on its own threads, through {@link OwnWrites}:
 * each revision comes from {@link OwnWrites#nextRevision} under the home's lock of that key, and
 * each stored write is reported with {@link OwnWrites#stored} once {@link #get} returns it (the
 * replicator may read the key as soon as it hears of it). Peers' records reach it through {@link
 * #store}, from the replicator's thread.
 *
 * <p>Thread-safety: every method may run while the home's own threads write; {@link #store} and
 * {@link #removeIf} must check and change a key atomically with those writes (one per-key lock).
 */
public interface RecordHome {

  /** True for the keys this home keeps. */
  boolean homes(String key);

  /**
   * Whether {@code r}, a live record of a key this home keeps that this member owned before it
   * restarted (met in a peer's snapshot while it loads), outlives that restart: {@link #store}
   * is then offered it, owner and revision unchanged, and takes it back as this member's own.
   * False by default: what an earlier run wrote died with it.
   */
  default boolean outlivesRestart(DistroRecord r) {
    return false;
  }

  /** The record held for {@code key}, tombstones included, its value encoded now. */
  Optional<DistroRecord> get(String key);

  /**
   * Stores a peer's record {@code r} (of a key this home keeps) if {@code accept} takes what is
   * held now (null when nothing is), checked and stored in one step. The home applies it to the
   * application's view (a tombstone deletes the key there) and keeps the tombstone.
   */
  Stored store(DistroRecord r, Predicate<RecordStamp> accept);

  /** Forgets the record of {@code key} if it is still exactly {@code held}; true when it did. */
  boolean removeIf(String key, RecordStamp held);

  /** Calls {@code action} with every key held and its stamp, tombstones included. */
  void forEachStamp(BiConsumer<String, RecordStamp> action);

  /**
   * The records whose stamps {@code which} takes, in no particular order, as held now. The list
   * may encode a value each time it is read, on any thread: read it once.
   */
  List<DistroRecord> records(Predicate<RecordStamp> which);

  /**
   * The outcome of {@link #store}.
   *
   * @param stored whether the record was stored
   * @param previous what was held before (null when nothing was); meaningful when stored
   */
  record Stored(boolean stored, RecordStamp previous) {
    public static final Stored REFUSED = new Stored(false, null);
  }
}
