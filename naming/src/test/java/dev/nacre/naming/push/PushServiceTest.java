package dev.nacre.naming.push;

import static dev.nacre.naming.push.FakeRegistry.instance;
import static dev.nacre.naming.push.FakeRegistry.service;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nacre.naming.model.ServiceKey;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The shell on its real thread and clock: change callbacks, timers, completions, timeouts. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class PushServiceTest {
  private static final PushConfig FAST = new PushConfig(
      Duration.ofMillis(30), Duration.ofMillis(200), Duration.ofMillis(20), Duration.ofMillis(50),
      Duration.ofMillis(600), Duration.ofSeconds(30));
  private final FakeRegistry registry = new FakeRegistry();
  private final PushService push = new PushService("test", FAST, Clock.systemUTC(), registry);
  private final ServiceKey svc = service("svc");

  @AfterEach
  void close() {
    push.close();
  }

  @Test
  void subscribePushesOnceThenEveryChangeArrives() {
    RecordingTarget a = RecordingTarget.acking("a");
    push.subscribe(svc, Set.of(), a);
    await().atMost(Duration.ofSeconds(5)).until(() -> a.received.size() == 1);
    assertThat(a.received.get(0).hosts()).isEmpty();

    for (int port = 1; port <= 50; port++) {
      registry.put(instance(svc, "DEFAULT", port));
      push.onServiceChanged(svc);
    }
    await().atMost(Duration.ofSeconds(5)).until(() -> !a.received.isEmpty()
        && a.received.get(a.received.size() - 1).hosts().size() == 50);
    assertThat(a.received.size()).as("50 changes in a burst are merged into few pushes").isLessThan(10);
  }

  @Test
  void aTargetThatNeverAcksIsRetriedThenDropped() {
    RecordingTarget silent = RecordingTarget.silent("silent");
    RecordingTarget fine = RecordingTarget.acking("fine");
    push.subscribe(svc, Set.of(), silent);
    push.subscribe(svc, Set.of(), fine);
    await().atMost(Duration.ofSeconds(10)).until(() -> push.servicesOf("silent").isEmpty());
    assertThat(silent.received.size()).as("retried before giving up").isGreaterThanOrEqualTo(2);
    assertThat(push.subscribersOf(svc)).containsExactly("fine");
  }

  @Test
  void aTargetThatThrowsIsRetriedAndRecovers() {
    AtomicInteger calls = new AtomicInteger();
    RecordingTarget flaky = new RecordingTarget("flaky", v -> {
      if (calls.incrementAndGet() <= 2) {
        throw new IllegalStateException("stream not ready");
      }
      return CompletableFuture.completedFuture(null);
    });
    push.subscribe(svc, Set.of(), flaky);
    await().atMost(Duration.ofSeconds(5)).until(() -> calls.get() >= 3);
    registry.put(instance(svc, "DEFAULT", 7));
    push.onServiceChanged(svc);
    await().atMost(Duration.ofSeconds(5)).until(() -> flaky.received.stream().anyMatch(v -> v.hosts().size() == 1));
    assertThat(push.servicesOf("flaky")).containsExactly(svc);
  }

  @Test
  void changesOfServicesThatNobodyWatchesGiveThePushThreadNoWork() {
    ServiceKey unwatched = service("unwatched");
    for (int port = 1; port <= 20; port++) {
      registry.put(instance(unwatched, "DEFAULT", port));
      long before = push.tasksScheduled();
      push.onServiceChanged(unwatched);
      assertThat(push.tasksScheduled()).as("tasks after change %d", port).isEqualTo(before);
    }
    RecordingTarget late = RecordingTarget.acking("late");
    push.subscribe(unwatched, Set.of(), late);
    await().atMost(Duration.ofSeconds(5)).until(() -> late.received.size() == 1);
    assertThat(late.received.get(0).hosts()).as("a later subscriber sees every change").hasSize(20);
    long before = push.tasksScheduled();
    registry.put(instance(unwatched, "DEFAULT", 21));
    push.onServiceChanged(unwatched);
    assertThat(push.tasksScheduled()).as("a watched service's change wakes the thread").isGreaterThan(before);
    await().atMost(Duration.ofSeconds(5)).until(() -> late.received.get(late.received.size() - 1).hosts().size() == 21);
  }

  @Test
  void changesAfterCloseAreIgnored() {
    push.close();
    push.onServiceChanged(svc);
    push.subscribe(svc, Set.of(), RecordingTarget.acking("late"));
    assertThat(push.subscribersOf(svc)).containsExactly("late");
  }
}
