package dev.nacre.consensus.distro;

import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * How a {@link RecordHome} writes this member's own records: it runs each write in
 * {@link #write}, takes the record's revision from {@link #nextRevision} under its lock of the
 * key, and reports the stored result with {@link #stored} once its readers see it. Two writes of
 * one key may report out of order; the replicator keeps the higher revision. Reporting only
 * enqueues: a write never waits for replication.
 *
 * <p>Thread-safe. {@link #standalone} serves a node without peers: revisions, nothing replicated.
 */
public final class OwnWrites {
  /** Where stored writes are reported. */
  public interface Sink {
    void stored(String key, RecordStamp before, RecordStamp after);
  }

  private final String selfId;
  private final RevisionCounter revisions;
  private final LongSupplier clockMillis;
  private final Sink sink;

  OwnWrites(String selfId, RevisionCounter revisions, LongSupplier clockMillis, Sink sink) {
    this.selfId = Objects.requireNonNull(selfId, "selfId");
    this.revisions = revisions;
    this.clockMillis = clockMillis;
    this.sink = sink;
  }

  /** Revisions for a member that replicates nothing (yet): a standalone node, or before attaching. */
  public static OwnWrites standalone(String selfId, LongSupplier clockMillis) {
    return reportingTo(selfId, clockMillis, (key, before, after) -> { });
  }

  /** Revisions of its own, and stored writes reported to {@code sink} (a stand-in replicator). */
  public static OwnWrites reportingTo(String selfId, LongSupplier clockMillis, Sink sink) {
    return new OwnWrites(selfId, new RevisionCounter(clockMillis.getAsLong()), clockMillis, sink);
  }

  /** The member id own records carry as their owner. */
  public String selfId() {
    return selfId;
  }

  /** Runs one write of the home: a snapshot's high-water mark is read only between writes. */
  public <T> T write(Supplier<T> write) {
    var lock = revisions.writes();
    lock.lock();
    try {
      return write.get();
    } finally {
      lock.unlock();
    }
  }

  /** The revision of a new own record of a key that holds {@code heldRevision} (0 when nothing). */
  public long nextRevision(long heldRevision) {
    return revisions.next(heldRevision, clockMillis.getAsLong());
  }

  /** A revision this member issued through another {@code OwnWrites}: never issue it again. */
  public void observe(long revision) {
    revisions.observe(revision);
  }

  /**
   * Reports that the home now holds {@code after} (this member's record or tombstone) for
   * {@code key}, in place of {@code before} (null when nothing).
   */
  public void stored(String key, RecordStamp before, RecordStamp after) {
    if (!after.owner().equals(selfId)) {
      throw new IllegalArgumentException("own write of " + key + " stamped with owner "
          + after.owner() + ", not " + selfId);
    }
    sink.stored(key, before, after);
  }
}
