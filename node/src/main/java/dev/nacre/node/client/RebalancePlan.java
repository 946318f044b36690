package dev.nacre.node.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How many of this member's Nacos 2.x clients to move, and where, so that clients spread over the
 * members again after a rolling restart left them all on the member that came up first (Nacos'
 * issue #9245). Gradual and bounded: only a member above its fair share by more than a slack moves
 * any, at most a tenth of its clients per round, each to the member with the fewest at that point.
 * Pure: the counts come in, the targets go out.
 */
public final class RebalancePlan {
  private RebalancePlan() {}

  /**
   * @param mine clients registered on this member
   * @param others clients on each other member that is up and ready, by member address
   * @return one member address per client to move now (empty: stay)
   */
  public static List<String> targets(int mine, Map<String, Integer> others) {
    if (others.isEmpty()) {
      return List.of();
    }
    long total = mine + others.values().stream().mapToLong(Integer::longValue).sum();
    int members = others.size() + 1;
    long fair = (total + members - 1) / members;
    long slack = Math.max(1, fair / 5);
    if (mine <= fair + slack) {
      return List.of();
    }
    long moves = Math.min(mine - fair, Math.max(1, mine / 10));
    TreeMap<String, Long> projected = new TreeMap<>();
    others.forEach((member, count) -> projected.put(member, count.longValue()));
    List<String> targets = new ArrayList<>();
    for (long i = 0; i < moves; i++) {
      String least = projected.entrySet().stream().min(Map.Entry.comparingByValue()).orElseThrow().getKey();
      if (projected.get(least) + 1 > fair) {
        break; // everyone else is at its share: the rest would only move the excess around
      }
      projected.merge(least, 1L, Long::sum);
      targets.add(least);
    }
    return targets;
  }
}
