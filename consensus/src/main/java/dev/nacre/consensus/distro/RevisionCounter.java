package dev.nacre.consensus.distro;

/**
 * Issues the revisions of this member's writes: {@code max(last issued + 1, held revision + 1,
 * now * 1000)}. Increasing per member; always above any record of the key this member has seen
 * (that is how a key is re-owned); and above what an earlier run of this member issued, since it
 * follows the clock, so a restarted member's writes are never mistaken for stale ones.
 */
final class RevisionCounter {
  static final long REVISIONS_PER_MILLI = 1000;

  private long lastIssued;

  RevisionCounter(long nowMillis) {
    lastIssued = nowMillis * REVISIONS_PER_MILLI;
  }

  long next(long heldRevision, long nowMillis) {
    lastIssued = Math.max(Math.max(lastIssued + 1, heldRevision + 1),
        nowMillis * REVISIONS_PER_MILLI);
    return lastIssued;
  }

  /** A revision of this member's seen elsewhere (an earlier run's): never issue it again. */
  void observe(long revision) {
    lastIssued = Math.max(lastIssued, revision);
  }

  long lastIssued() {
    return lastIssued;
  }
}
