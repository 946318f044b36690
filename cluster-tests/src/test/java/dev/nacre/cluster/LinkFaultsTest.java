package dev.nacre.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.cluster.LinkFilter.Decision;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The fault table alone: directions, healing, seeded loss and delay. */
@Timeout(10)
class LinkFaultsTest {
  private static final Set<String> ALL = Set.of("a", "b", "c");

  @Test
  void partitionCutsBothDirectionsBetweenSidesOnly() {
    LinkFaults f = new LinkFaults(1);
    f.partition(Set.of("a"), Set.of("b", "c"));
    assertThat(f.decide("a", "b")).isEqualTo(Decision.DROP);
    assertThat(f.decide("c", "a")).isEqualTo(Decision.DROP);
    assertThat(f.decide("b", "c")).isEqualTo(Decision.PASS);
    f.heal("a", "b");
    assertThat(f.decide("a", "b")).isEqualTo(Decision.PASS);
    assertThat(f.decide("b", "a")).isEqualTo(Decision.DROP);
    f.heal();
    assertThat(f.decide("b", "a")).isEqualTo(Decision.PASS);
    assertThat(f.dropped()).isEqualTo(3);
  }

  @Test
  void oneWayCutAndIsolation() {
    LinkFaults f = new LinkFaults(1);
    f.cutOneWay("a", "b");
    assertThat(f.decide("a", "b")).isEqualTo(Decision.DROP);
    assertThat(f.decide("b", "a")).isEqualTo(Decision.PASS);
    f.isolate("c", ALL);
    assertThat(f.decide("c", "a")).isEqualTo(Decision.DROP);
    assertThat(f.decide("b", "c")).isEqualTo(Decision.DROP);
    f.healMember("c");
    assertThat(f.decide("b", "c")).isEqualTo(Decision.PASS);
    assertThat(f.decide("a", "b")).isEqualTo(Decision.DROP);
  }

  @Test
  void lossAndJitterReplayFromTheSeed() {
    StringBuilder first = new StringBuilder();
    StringBuilder second = new StringBuilder();
    for (StringBuilder out : new StringBuilder[] {first, second}) {
      LinkFaults f = new LinkFaults(42);
      f.lossy(0.5, ALL);
      for (int i = 0; i < 200; i++) {
        out.append(f.decide("a", "b").dropped() ? 'x' : '.');
      }
      f.delay(Duration.ofMillis(10), Duration.ofMillis(5), ALL);
      for (int i = 0; i < 20; i++) {
        Duration d = f.decide("b", "c").delay();
        assertThat(d).isBetween(Duration.ofMillis(10), Duration.ofMillis(15));
        out.append(d.toNanos()).append(',');
      }
    }
    assertThat(first.toString()).isEqualTo(second.toString());
    long drops = first.chars().limit(200).filter(ch -> ch == 'x').count();
    assertThat(drops).isBetween(60L, 140L);
  }
}
