package dev.nacre.consensus.distro;

import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.Collection;

/**
 * Maps a key (for example a service name) to the member responsible for it, among the members
 * that are UP. Every member that knows the same UP members computes the same answer.
 *
 * <p>Uses rendezvous (highest random weight) hashing: each (key, member) pair gets a stable
 * 64-bit score and the highest score wins. When a member leaves, only the keys it was
 * responsible for move; when one joins, only about 1/N of the keys move to it.
 *
 * <p>Immutable and thread-safe; build a new one when membership changes.
 */
public final class OwnershipMapper {
  private final List<String> members;
  private final long[] memberHashes;

  /**
   * @param upMemberIds ids of the members that are UP, in any order, duplicates ignored
   * @throws IllegalArgumentException when there is no member
   */
  public OwnershipMapper(Collection<String> upMemberIds) {
    this.members = List.copyOf(new TreeSet<>(upMemberIds));
    if (members.isEmpty()) {
      throw new IllegalArgumentException("ownership needs at least one UP member");
    }
    memberHashes = new long[members.size()];
    for (int i = 0; i < members.size(); i++) {
      memberHashes[i] = Hashing.hash(members.get(i));
    }
  }

  /** The UP members, sorted. */
  public List<String> members() {
    return members;
  }

  /** The member responsible for {@code key}. */
  public String ownerOf(String key) {
    Objects.requireNonNull(key, "key");
    long keyHash = Hashing.hash(key);
    int best = 0;
    long bestScore = Long.MIN_VALUE;
    for (int i = 0; i < memberHashes.length; i++) {
      long score = Hashing.mix(keyHash ^ memberHashes[i]);
      // Ties go to the first (smallest) id, so the answer never depends on input order.
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    }
    return members.get(best);
  }

  /** True when {@code memberId} is responsible for {@code key}. */
  public boolean isResponsible(String memberId, String key) {
    return ownerOf(key).equals(memberId);
  }
}
