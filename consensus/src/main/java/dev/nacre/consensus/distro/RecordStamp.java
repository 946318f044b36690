package dev.nacre.consensus.distro;

import java.util.Objects;

/**
 * What replication needs to know of a held record without its value: who wrote it, at which
 * revision, and whether it says "deleted". A key and its stamp identify a record: an owner never
 * issues one revision twice.
 *
 * @param owner id of the member that wrote the record
 * @param revision the owner's revision, positive
 * @param tombstone true when the record says the key was deleted
 */
public record RecordStamp(String owner, long revision, boolean tombstone) {
  public RecordStamp {
    Objects.requireNonNull(owner, "owner");
  }

  /** The stamp of {@code r}. */
  public static RecordStamp of(DistroRecord r) {
    return new RecordStamp(r.owner(), r.revision(), r.tombstone());
  }

  /** True when {@code r} replaces the record stamped so (same key assumed): see {@link DistroRecord#isNewerThan}. */
  public boolean isReplacedBy(DistroRecord r) {
    if (revision != r.revision()) {
      return r.revision() > revision;
    }
    return r.owner().compareTo(owner) > 0;
  }

  /** True when this stamp is exactly {@code r}'s. */
  public boolean stamps(DistroRecord r) {
    return revision == r.revision() && tombstone == r.tombstone() && owner.equals(r.owner());
  }
}
