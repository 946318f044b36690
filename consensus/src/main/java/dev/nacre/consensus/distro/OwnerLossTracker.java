package dev.nacre.consensus.distro;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Members that went DOWN, and when their records' grace period ends. Once it has ended the
 * member's records are removed and any copy of them that still arrives is refused, so a peer that
 * has not yet removed them cannot bring them back; all of this ends when the member is UP again.
 */
final class OwnerLossTracker {
  private final long graceMillis;
  private final Map<String, Long> downSince = new TreeMap<>();
  private final Set<String> expired = new HashSet<>();

  OwnerLossTracker(DistroConfig config) {
    this.graceMillis = config.ownerGracePeriod().toMillis();
  }

  void down(String member, long nowMillis) {
    downSince.putIfAbsent(member, nowMillis);
  }

  void up(String member) {
    downSince.remove(member);
    expired.remove(member);
  }

  /** Owners whose grace period ended now; each is returned once. */
  List<String> newlyExpired(long nowMillis) {
    List<String> out = new ArrayList<>();
    downSince.forEach((member, since) -> {
      if (!expired.contains(member) && nowMillis - since >= graceMillis) {
        out.add(member);
      }
    });
    expired.addAll(out);
    return out;
  }

  /** True when records of {@code owner} must be refused. */
  boolean refuses(String owner) {
    return expired.contains(owner);
  }
}
