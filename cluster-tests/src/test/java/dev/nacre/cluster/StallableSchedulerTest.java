package dev.nacre.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(20)
class StallableSchedulerTest {

  @Test
  void aStalledNodeRunsItsTasksOnlyAfterTheStall() throws Exception {
    long until = System.nanoTime() + Duration.ofMillis(600).toNanos();
    TimerStall stall = node -> node.equals("a") ? Duration.ofNanos(until - System.nanoTime()) : Duration.ZERO;
    StallableScheduler a = new StallableScheduler(1, "a", Optional.of(stall));
    StallableScheduler b = new StallableScheduler(1, "b", Optional.of(stall));
    try {
      CompletableFuture<Long> ranA = new CompletableFuture<>();
      CompletableFuture<Long> ranB = new CompletableFuture<>();
      a.schedule(() -> ranA.complete(System.nanoTime()), 0, TimeUnit.MILLISECONDS);
      b.schedule(() -> ranB.complete(System.nanoTime()), 0, TimeUnit.MILLISECONDS);
      assertThat(ranB.get(5, TimeUnit.SECONDS)).isLessThan(until);
      assertThat(ranA.get(5, TimeUnit.SECONDS)).isGreaterThanOrEqualTo(until);
    } finally {
      a.shutdownNow();
      b.shutdownNow();
    }
  }

  @Test
  void withoutAHookTasksRunAtOnce() throws Exception {
    StallableScheduler s = new StallableScheduler(1, "x", Optional.empty());
    try {
      assertThat(s.submit(() -> Thread.currentThread().getName()).get(5, TimeUnit.SECONDS)).isEqualTo("x-timer");
    } finally {
      s.shutdownNow();
    }
  }
}
