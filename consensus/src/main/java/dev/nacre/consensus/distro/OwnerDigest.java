package dev.nacre.consensus.distro;

import java.util.Objects;

/**
 * A summary of the live records (tombstones excluded) that one owner holds, compared by verify.
 *
 * @param owner the member whose records are summarised
 * @param count number of live records owned by {@code owner}
 * @param checksum order-independent 64-bit sum of a hash of (key, revision) per live record
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
