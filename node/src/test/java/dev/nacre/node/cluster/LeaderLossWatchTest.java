package dev.nacre.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LeaderLossWatchTest {
  private static final String A = "127.0.0.1:8848";
  private static final String B = "127.0.0.1:8858";
  private static final String C = "127.0.0.1:8868";

  @Test
  void exactlyOneSurvivorStandsWhenBothSeeEachOther() {
    // The leader C is gone; A and B see each other UP (and maybe C, not yet marked DOWN).
    assertThat(LeaderLossWatch.successor(A, C, List.of(B, C))).isEqualTo(A);
    assertThat(LeaderLossWatch.successor(B, C, List.of(A, C))).isEqualTo(A);
  }

  @Test
  void theNextInOrderStandsWhenTheFirstIsDown() {
    assertThat(LeaderLossWatch.successor(B, A, List.of(C))).isEqualTo(B);
    assertThat(LeaderLossWatch.successor(C, A, List.of(B))).isEqualTo(B);
    assertThat(LeaderLossWatch.successor(C, A, List.of())).as("alone with the leader gone").isEqualTo(C);
  }
}
