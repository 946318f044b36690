package dev.nacre.naming.push;

import static dev.nacre.naming.push.FakeRegistry.instance;
import static dev.nacre.naming.push.FakeRegistry.service;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.naming.model.ServiceKey;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The push core on a hand-moved clock: merging, filtering, one push in flight, retry, drop. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class PushCoreTest {
  private static final PushConfig CONFIG = new PushConfig(
      Duration.ofMillis(50), Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ofSeconds(4),
      Duration.ofSeconds(30), Duration.ofSeconds(30));
  private final FakeRegistry registry = new FakeRegistry();
  private final PushCore core = new PushCore("test", CONFIG, registry);
  private final ServiceKey svc = service("svc");
  private long now = 1_000;

  @Test
  void subscribeGetsOnePushAfterTheWindowEvenWithoutInstances() {
    RecordingTarget a = RecordingTarget.acking("a");
    core.subscribe(svc, Set.of(), a, now);

    assertThat(core.due(now + 49)).isEmpty();
    assertThat(core.nextDueAt()).isEqualTo(now + 50);
    List<PushOrder> orders = core.due(now + 50);
    assertThat(orders).singleElement().satisfies(o -> {
      assertThat(o.clientId()).isEqualTo("a");
      assertThat(o.view().hosts()).isEmpty();
      assertThat(o.forced()).isTrue();
    });
    core.acked(orders.get(0), now + 51);
    assertThat(core.nextDueAt()).isEqualTo(Long.MAX_VALUE);
    assertThat(core.due(now + 10_000)).isEmpty();
  }

  @Test
  void aLoneChangeGoesAtOnceAndTheRestOfABurstWaitsForTheWindow() {
    subscribedAndAcked(RecordingTarget.acking("a"), Set.of());
    registry.put(instance(svc, "DEFAULT", 1));
    core.serviceChanged(svc, now + 1);
    assertThat(core.nextDueAt()).as("nothing was pushed within the window").isEqualTo(now + 1);
    List<PushOrder> first = core.due(now + 1);
    assertThat(first).singleElement().satisfies(o -> assertThat(o.view().hosts()).hasSize(1));
    core.acked(first.get(0), now + 2);

    for (int port = 2; port <= 20; port++) {
      registry.put(instance(svc, "DEFAULT", port));
      core.serviceChanged(svc, now + port);
    }
    assertThat(core.nextDueAt()).as("one window after the last push").isEqualTo(now + 1 + 50);
    assertThat(core.due(now + 50)).isEmpty();
    List<PushOrder> orders = core.due(now + 51);
    assertThat(orders).singleElement().satisfies(o -> assertThat(o.view().hosts()).hasSize(20));
    core.acked(orders.get(0), now + 52);

    registry.put(instance(svc, "DEFAULT", 21));
    core.serviceChanged(svc, now + 200);
    assertThat(core.nextDueAt()).as("quiet again: at once").isEqualTo(now + 200);
  }

  @Test
  void aChangeThatNoSubscriberSeesDoesNotDelayTheNext() {
    subscribedAndAcked(RecordingTarget.acking("a"), Set.of("A"));
    registry.put(instance(svc, "B", 1));
    core.serviceChanged(svc, now);
    assertThat(core.due(now)).as("cluster B is not in a's list").isEmpty();
    registry.put(instance(svc, "A", 2));
    core.serviceChanged(svc, now + 1);
    assertThat(core.nextDueAt()).isEqualTo(now + 1);
    assertThat(core.due(now + 1)).singleElement()
        .satisfies(o -> assertThat(FakeRegistry.ports(o.view().hosts())).isEqualTo("[A:2]"));
  }

  @Test
  void changesWithoutSubscribersLeaveNothingPending() {
    core.serviceChanged(svc, now);
    core.serviceChanged(service("other"), now);
    assertThat(core.nextDueAt()).isEqualTo(Long.MAX_VALUE);
    assertThat(core.due(now + 1_000)).isEmpty();
    assertThat(registry.built).hasValue(0);
  }

  @Test
  void onePushInFlightPerSubscriberAndTheNewestFollowsTheAck() {
    subscribedAndAcked(RecordingTarget.acking("a"), Set.of());
    registry.put(instance(svc, "DEFAULT", 1));
    core.serviceChanged(svc, now);
    List<PushOrder> first = core.due(now += 50);
    assertThat(first).hasSize(1);

    registry.put(instance(svc, "DEFAULT", 2));
    core.serviceChanged(svc, now);
    registry.put(instance(svc, "DEFAULT", 3));
    core.serviceChanged(svc, now + 10);
    assertThat(core.due(now += 100)).as("the first is not acknowledged yet").isEmpty();

    core.acked(first.get(0), now);
    List<PushOrder> next = core.due(now);
    assertThat(next).singleElement()
        .satisfies(o -> assertThat(FakeRegistry.ports(o.view().hosts())).isEqualTo("[DEFAULT:1, DEFAULT:2, DEFAULT:3]"));
  }

  @Test
  void eachSubscriberGetsItsClustersAndUnchangedListsAreNotPushedAgain() {
    RecordingTarget onlyA = RecordingTarget.acking("only-a");
    RecordingTarget all = RecordingTarget.acking("all");
    core.subscribe(svc, Set.of("A"), onlyA, now);
    core.subscribe(svc, Set.of(), all, now);
    for (PushOrder o : core.due(now += 50)) {
      core.acked(o, now);
    }

    registry.put(instance(svc, "B", 1));
    core.serviceChanged(svc, now);
    List<PushOrder> orders = core.due(now += 50);
    assertThat(orders).singleElement().satisfies(o -> assertThat(o.clientId()).isEqualTo("all"));
    core.acked(orders.get(0), now);

    registry.put(instance(svc, "A", 2));
    core.serviceChanged(svc, now);
    orders = core.due(now += 50);
    assertThat(orders).extracting(PushOrder::clientId).containsExactlyInAnyOrder("only-a", "all");
    PushOrder toA = orders.stream().filter(o -> o.clientId().equals("only-a")).findFirst().orElseThrow();
    assertThat(FakeRegistry.ports(toA.view().hosts())).isEqualTo("[A:2]");
  }

  @Test
  void failedPushesAreRetriedWithDoublingBackoffThenTheClientIsDropped() {
    core.subscribe(svc, Set.of(), RecordingTarget.silent("a"), now);
    core.subscribe(service("second"), Set.of(), RecordingTarget.silent("a"), now);
    long start = now + 50;
    List<PushOrder> orders = core.due(start);
    assertThat(orders).hasSize(2);
    PushOrder order = orders.stream().filter(o -> o.service().equals(svc)).findFirst().orElseThrow();
    core.acked(orders.stream().filter(o -> o != order).findFirst().orElseThrow(), start);

    now = start + 5_000;
    List<Long> retries = new java.util.ArrayList<>();
    PushOrder current = order;
    boolean dropped = false;
    while (!dropped) {
      dropped = core.failed(current, new java.util.concurrent.TimeoutException("no ack"), now);
      if (dropped) {
        break;
      }
      long retryAt = core.nextDueAt();
      retries.add(retryAt - now);
      assertThat(core.due(retryAt - 1)).isEmpty();
      List<PushOrder> again = core.due(retryAt);
      assertThat(again).singleElement().satisfies(o -> assertThat(o.forced()).as("still the first push").isTrue());
      current = again.get(0);
      now = retryAt + 5_000;
    }
    assertThat(retries).startsWith(1_000L, 2_000L, 4_000L, 4_000L);
    assertThat(now - start).isGreaterThanOrEqualTo(30_000);
    assertThat(core.servicesOf("a")).as("every subscription of the client goes").isEmpty();
    assertThat(core.size()).isZero();
  }

  @Test
  void anAckStopsTheDropClock() {
    PushOrder first = subscribedOrder(RecordingTarget.silent("a"));
    core.failed(first, new RuntimeException("lost"), now += 20_000);
    PushOrder retry = core.due(core.nextDueAt()).get(0);
    core.acked(retry, now += 2_000);
    registry.put(instance(svc, "DEFAULT", 1));
    core.serviceChanged(svc, now);
    PushOrder later = core.due(now += 50).get(0);
    assertThat(core.failed(later, new RuntimeException("lost"), now += 15_000)).isFalse();
    assertThat(core.servicesOf("a")).containsExactly(svc);
  }

  @Test
  void completionsOfAReplacedSubscriptionAreIgnored() {
    PushOrder old = subscribedOrder(RecordingTarget.silent("a"));
    RecordingTarget fresh = RecordingTarget.acking("a");
    core.subscribe(svc, Set.of(), fresh, now);
    core.failed(old, new RuntimeException("old connection"), now);
    core.acked(old, now);
    List<PushOrder> orders = core.due(now += 50);
    assertThat(orders).singleElement().satisfies(o -> {
      assertThat(o.target()).isSameAs(fresh);
      assertThat(o.forced()).isTrue();
    });
  }

  @Test
  void bookkeepingOfClientsAndServices() {
    ServiceKey b = service("b");
    ServiceKey a = service("a");
    core.subscribe(b, Set.of(), RecordingTarget.acking("x"), now);
    core.subscribe(a, Set.of(), RecordingTarget.acking("x"), now);
    core.subscribe(a, Set.of(), RecordingTarget.acking("w"), now);
    assertThat(core.servicesOf("x")).containsExactly(a, b);
    assertThat(core.subscribersOf(a)).containsExactly("w", "x");
    core.unsubscribe(a, "x");
    core.unsubscribe(a, "nobody");
    assertThat(core.servicesOf("x")).containsExactly(b);
    core.removeClient("x");
    core.removeClient("nobody");
    assertThat(core.servicesOf("x")).isEmpty();
    assertThat(core.subscribersOf(b)).isEmpty();
    assertThat(core.due(now + 50)).extracting(PushOrder::clientId).containsExactly("w");
  }

  @Test
  void aListThatCannotBeBuiltIsSkippedAndOthersStillGo() {
    registry.broken = svc;
    core.subscribe(svc, Set.of(), RecordingTarget.acking("a"), now);
    core.subscribe(service("fine"), Set.of(), RecordingTarget.acking("a"), now);
    assertThat(core.due(now + 50)).extracting(o -> o.service().name()).containsExactly("fine");
    assertThat(core.nextDueAt()).isEqualTo(Long.MAX_VALUE);
  }

  private void subscribedAndAcked(RecordingTarget target, Set<String> clusters) {
    core.subscribe(svc, clusters, target, now);
    for (PushOrder o : core.due(now += 50)) {
      core.acked(o, now);
    }
  }

  private PushOrder subscribedOrder(RecordingTarget target) {
    core.subscribe(svc, Set.of(), target, now);
    return core.due(now += 50).get(0);
  }
}
