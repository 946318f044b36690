package dev.nacre.consensus.distro;

import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A peer's answer to a {@link SnapshotRequest}.
 *
 * <p>For {@link SnapshotRequest.Scope#OWNED} the records are the sender's complete set: the
 * receiver replaces its view of the sender's records with it, except for records newer than
 * {@code highWaterRevision} (they were written after the snapshot and are on their way).
 *
 * @param sender id of the member that built the snapshot
 * @param scope the requested scope
 * @param highWaterRevision the highest revision the sender had issued when it built the snapshot
 * @param records the records, tombstones included, in no particular order (a listing's may be encoded
 *     each time they are read)
 */
public record DistroSnapshot(
    String sender, SnapshotRequest.Scope scope, long highWaterRevision, List<DistroRecord> records) {
  public DistroSnapshot {
    Objects.requireNonNull(sender, "sender");
    Objects.requireNonNull(scope, "scope");
    // Not copied: a listing may encode its records as they are read (RecordHome#records), and a
    // sender reads them once, part by part, as the stream takes them.
    records = Collections.unmodifiableList(records);
  }
}
