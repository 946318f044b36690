package dev.nacre.consensus.distro;

import java.util.Arrays;
import java.util.Objects;

/**
 * One replicated record: the latest state of {@code key} as written by {@code owner}.
 *
 * <p>Records of one key are ordered by {@link #isNewerThan}: the higher revision wins, and the
 * higher owner id breaks a tie. Owners assign revisions so that a write always outranks every
 * record of that key it has seen, which is how a record moves to a new owner ("re-owned"): the new
 * owner's write replaces the old owner's record everywhere.
 *
 * <p>A tombstone records a deletion; its {@code value} is empty. The value array belongs to the
 * record: nobody mutates it after construction.
 *
 * @param key the record's key, for example an instance or client id
 * @param owner id of the member that wrote this record
 * @param revision positive, assigned by the owner, increasing per key
 * @param value opaque bytes, empty for a tombstone
 * @param tombstone true when the record says "deleted"
 */
public record DistroRecord(String key, String owner, long revision, byte[] value, boolean tombstone) {
  private static final byte[] EMPTY = new byte[0];

  public DistroRecord {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(value, "value");
    if (revision < 1) {
      throw new IllegalArgumentException("revision must be positive, got " + revision + " for " + key);
    }
    if (tombstone && value.length != 0) {
      throw new IllegalArgumentException("a tombstone carries no value: " + key);
    }
  }

  /** A record that holds {@code value} for {@code key}. */
  public static DistroRecord live(String key, String owner, long revision, byte[] value) {
    return new DistroRecord(key, owner, revision, value, false);
  }

  /** A record that says {@code key} was deleted by {@code owner} at {@code revision}. */
  public static DistroRecord tombstone(String key, String owner, long revision) {
    return new DistroRecord(key, owner, revision, EMPTY, true);
  }

  /** True when this record replaces {@code other} (same key assumed): higher revision, then owner id. */
  public boolean isNewerThan(DistroRecord other) {
    if (revision != other.revision) {
      return revision > other.revision;
    }
    return owner.compareTo(other.owner) > 0;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DistroRecord r
        && revision == r.revision
        && tombstone == r.tombstone
        && key.equals(r.key)
        && owner.equals(r.owner)
        && Arrays.equals(value, r.value);
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, owner, revision, tombstone) * 31 + Arrays.hashCode(value);
  }

  @Override
  public String toString() {
    return (tombstone ? "Tombstone[" : "Record[") + key + " owner=" + owner + " rev=" + revision
        + (tombstone ? "]" : " bytes=" + value.length + "]");
  }
}
