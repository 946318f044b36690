package dev.nacre.consensus.distro;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Issues the revisions of this member's writes: {@code max(last issued + 1, held revision + 1,
 * now * 1000)}. Increasing per member; always above any record of the key this member has seen
 * (that is how a key is re-owned); and above what an earlier run of this member issued, since it
 * follows the clock, so a restarted member's writes are never mistaken for stale ones.
 *
 * <p>Thread-safe: a {@link RecordHome} issues revisions on its own threads. Those writes run
 * inside {@link #gate}'s shared side, from issuing a revision to storing the record, so that
 * {@link #highWater} (taken on the exclusive side) is a revision below which every issued write
 * is already stored: a snapshot listed after reading it holds every record it claims to cover.
 */
final class RevisionCounter {
  static final long REVISIONS_PER_MILLI = 1000;

  private final AtomicLong lastIssued;
  private final ReentrantReadWriteLock gate = new ReentrantReadWriteLock();

  RevisionCounter(long nowMillis) {
    lastIssued = new AtomicLong(nowMillis * REVISIONS_PER_MILLI);
  }

  long next(long heldRevision, long nowMillis) {
    long floor = Math.max(heldRevision + 1, nowMillis * REVISIONS_PER_MILLI);
    return lastIssued.accumulateAndGet(floor, (last, f) -> Math.max(last + 1, f));
  }

  /** A revision of this member's seen elsewhere (an earlier run's): never issue it again. */
  void observe(long revision) {
    lastIssued.accumulateAndGet(revision, Math::max);
  }

  long lastIssued() {
    return lastIssued.get();
  }

  /** The last revision issued, once every write that holds a revision has stored its record. */
  long highWater() {
    gate.writeLock().lock();
    try {
      return lastIssued.get();
    } finally {
      gate.writeLock().unlock();
    }
  }

  ReentrantReadWriteLock.ReadLock writes() {
    return gate.readLock();
  }
}
