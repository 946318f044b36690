package dev.nacre.node.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RebalancePlanTest {
  @Test
  void aMemberNearItsShareMovesNobody() {
    assertThat(RebalancePlan.targets(4, Map.of("b", 3, "c", 3))).isEmpty();
    assertThat(RebalancePlan.targets(5, Map.of("b", 3, "c", 2))).as("within the slack").isEmpty();
    assertThat(RebalancePlan.targets(9, Map.of())).as("alone").isEmpty();
    assertThat(RebalancePlan.targets(0, Map.of("b", 9))).isEmpty();
  }

  @Test
  void aMemberHoldingEveryClientMovesATenthARoundToTheEmptiestMembers() {
    List<String> targets = RebalancePlan.targets(300, Map.of("b", 0, "c", 10));

    assertThat(targets).hasSize(30);
    assertThat(targets.stream().filter("b"::equals).count()).isEqualTo(20); // b fills up to c first
    assertThat(targets.stream().filter("c"::equals).count()).isEqualTo(10);
  }

  @Test
  void repeatedRoundsEndBalancedWithoutOvershoot() {
    Map<String, Integer> counts = new HashMap<>(Map.of("a", 60, "b", 0, "c", 0));
    for (int round = 0; round < 100; round++) {
      Map<String, Integer> moved = new HashMap<>();
      for (String member : List.of("a", "b", "c")) {
        Map<String, Integer> others = new HashMap<>(counts);
        others.remove(member);
        for (String target : RebalancePlan.targets(counts.get(member), others)) {
          moved.merge(member, -1, Integer::sum);
          moved.merge(target, 1, Integer::sum);
        }
      }
      moved.forEach((m, d) -> counts.merge(m, d, Integer::sum));
    }
    assertThat(counts.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(60);
    // A share of 20, and a member stops shedding within a fifth above it.
    assertThat(counts.values()).allSatisfy(n -> assertThat(n).isBetween(16, 24));
    assertThat(counts.get("a")).isLessThanOrEqualTo(24);
  }
}
