package dev.nacre.consensus.distro;

import java.util.Objects;

/**
 * A summary of the records (tombstones included) of one owner, compared by verify.
 *
 * <p>Tombstones count because a deletion that one member still remembers and the owner does not
 * (it restarted) would otherwise hide newer records of the same key from other owners.
 *
 * @param owner the member whose records are summarised
 * @param count number of records owned by {@code owner}
 * @param checksum order-independent 64-bit sum of a hash of (key, revision, tombstone) per record
 */
public record OwnerDigest(String owner, long count, long checksum) {
  public OwnerDigest {
    Objects.requireNonNull(owner, "owner");
  }

  /** True when both digests describe the same set of (key, revision) pairs (up to hash collisions). */
  public boolean sameContentAs(OwnerDigest other) {
    return count == other.count && checksum == other.checksum;
  }
}
