package dev.nacre.consensus.raft.internal;

/**
 * An operation on its way into a Raft entry, with the identity a member gave it when it forwarded
 * it to the leader ({@link #origin} empty for the leader's own, which are never repeated).
 */
public record TrackedOperation(byte[] operation, String origin, long sequence) {
  public static TrackedOperation own(byte[] operation) {
    return new TrackedOperation(operation, "", 0);
  }

  public boolean forwarded() {
    return !origin.isEmpty();
  }

  public Key key() {
    return new Key(origin, sequence);
  }

  /** What identifies a forwarded operation across repeats. */
  public record Key(String origin, long sequence) {}
}
