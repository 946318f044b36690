package dev.nacre.consensus.distro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class OwnershipMapperTest {
  static final List<String> FIVE = List.of("n1", "n2", "n3", "n4", "n5");

  @Test
  void sameAnswerWhateverTheOrderOfMembers() {
    OwnershipMapper sorted = new OwnershipMapper(FIVE);
    OwnershipMapper shuffled = new OwnershipMapper(List.of("n4", "n2", "n5", "n1", "n3", "n2"));
    for (int i = 0; i < 1000; i++) {
      assertThat(shuffled.ownerOf("svc-" + i)).isEqualTo(sorted.ownerOf("svc-" + i));
    }
  }

  @Test
  void answerIsStableAcrossRuns() {
    // Pinned: every node of every version must agree, so the hash may never change silently.
    OwnershipMapper m = new OwnershipMapper(FIVE);
    assertThat(List.of(m.ownerOf("DEFAULT_GROUP@@orders"), m.ownerOf("DEFAULT_GROUP@@billing"),
        m.ownerOf("a"), m.ownerOf("public##DEFAULT_GROUP@@payments")))
        .containsExactly("n5", "n3", "n4", "n4");
    assertThat(Hashing.hash("")).isEqualTo(Hashing.mix(0xcbf29ce484222325L));
  }

  @Test
  void spreadsKeysOverAllMembers() {
    OwnershipMapper m = new OwnershipMapper(FIVE);
    Map<String, Integer> counts = new HashMap<>();
    for (int i = 0; i < 10_000; i++) {
      counts.merge(m.ownerOf("svc-" + i), 1, Integer::sum);
    }
    assertThat(counts).containsOnlyKeys(FIVE);
    counts.values().forEach(c -> assertThat(c).isBetween(1700, 2300));
  }

  @Test
  void whenAMemberLeavesOnlyItsKeysMove() {
    OwnershipMapper before = new OwnershipMapper(FIVE);
    OwnershipMapper after = new OwnershipMapper(List.of("n1", "n2", "n4", "n5"));
    for (int i = 0; i < 5000; i++) {
      String key = "svc-" + i;
      if (!before.ownerOf(key).equals("n3")) {
        assertThat(after.ownerOf(key)).as(key).isEqualTo(before.ownerOf(key));
      }
    }
  }

  @Test
  void needsAtLeastOneMember() {
    assertThatThrownBy(() -> new OwnershipMapper(List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(new OwnershipMapper(List.of("solo")).isResponsible("solo", "anything")).isTrue();
  }
}
