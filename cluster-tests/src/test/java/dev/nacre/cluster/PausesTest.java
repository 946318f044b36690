package dev.nacre.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.node.http.HttpGate;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Pause deadlines and what links and client traffic do with them, on a fake clock. */
@Timeout(10)
class PausesTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final Pauses pauses = new Pauses(now::get);

  private void advance(Duration d) {
    now.addAndGet(d.toNanos());
  }

  @Test
  void aPauseEndsAtItsDeadlineAndTheLongerOneWins() {
    pauses.pause("a", Duration.ofSeconds(2));
    assertThat(pauses.remaining("a")).isEqualTo(Duration.ofSeconds(2));
    assertThat(pauses.stalledFor("b")).isZero();
    advance(Duration.ofMillis(500));
    pauses.pause("a", Duration.ofMillis(100));
    assertThat(pauses.remaining("a")).isEqualTo(Duration.ofMillis(1500));
    advance(Duration.ofMillis(1500));
    assertThat(pauses.isPaused("a")).isFalse();
    assertThat(pauses.stalledFor("a")).isZero();
    assertThatThrownBy(() -> pauses.pause("a", Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void callsToAndFromAPausedMemberAreHeldUntilItWakesButCutsStillDrop() {
    LinkFaults links = new LinkFaults(7, pauses);
    pauses.pause("a", Duration.ofSeconds(3));
    advance(Duration.ofSeconds(1));
    assertThat(links.decide("a", "b")).isEqualTo(LinkFilter.Decision.delay(Duration.ofSeconds(2)));
    assertThat(links.decide("c", "a")).isEqualTo(LinkFilter.Decision.delay(Duration.ofSeconds(2)));
    assertThat(links.decide("b", "c")).isEqualTo(LinkFilter.Decision.PASS);
    links.delay(Duration.ofMillis(10), Duration.ZERO, Set.of("a", "b"));
    assertThat(links.decide("b", "a").delay()).isEqualTo(Duration.ofMillis(2010));
    links.cutOneWay("a", "b");
    assertThat(links.decide("a", "b")).isEqualTo(LinkFilter.Decision.DROP);
    advance(Duration.ofSeconds(2));
    assertThat(links.decide("b", "a")).isEqualTo(LinkFilter.Decision.delay(Duration.ofMillis(10)));
  }

  @Test
  void clientTrafficIsDroppedWhenCutOffAndHeldWhenPaused() {
    ClientFaults clients = new ClientFaults(pauses);
    assertThat(clients.decide("a")).isEqualTo(HttpGate.Decision.PASS);
    pauses.pause("a", Duration.ofMillis(800));
    assertThat(clients.decide("a")).isEqualTo(HttpGate.Decision.hold(Duration.ofMillis(800)));
    clients.isolate("a");
    assertThat(clients.decide("a")).isEqualTo(HttpGate.Decision.RESET);
    assertThat(clients.decide("b")).isEqualTo(HttpGate.Decision.PASS);
    clients.heal("a");
    advance(Duration.ofMillis(800));
    assertThat(clients.decide("a")).isEqualTo(HttpGate.Decision.PASS);
  }
}
