package dev.nacre.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LeaderLossWatchTest {
  private static final String A = "127.0.0.1:8848";
  private static final String B = "127.0.0.1:8858";
  private static final String C = "127.0.0.1:8868";
  private static final String D = "127.0.0.1:8878";

  @Test
  void survivorsTakeDistinctTurnsInAddressOrderWhateverTheyThinkOfEachOther() {
    List<String> all = List.of(C, A, B);
    assertThat(LeaderLossWatch.turn(A, C, all)).isZero();
    assertThat(LeaderLossWatch.turn(B, C, all)).isEqualTo(1);
    assertThat(LeaderLossWatch.turn(B, A, all)).isZero();
    assertThat(LeaderLossWatch.turn(C, A, all)).isEqualTo(1);
  }

  @Test
  void inFiveMembersEachSurvivorHasItsOwnTurn() {
    List<String> all = List.of(A, B, C, D, "127.0.0.1:8888");
    List<Integer> turns = all.stream().filter(m -> !m.equals(B)).map(m -> LeaderLossWatch.turn(m, B, all)).toList();
    assertThat(turns).containsExactly(0, 1, 2, 3);
  }
}
