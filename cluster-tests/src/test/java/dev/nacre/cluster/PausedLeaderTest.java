package dev.nacre.cluster;

import static dev.nacre.cluster.LocalCluster.NS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nacre.node.cluster.MemberState;
import dev.nacre.node.testkit.Http;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A leader frozen as in a long GC pause ({@link LocalCluster#pause}): the others replace it while
 * it sleeps, its client's write is held rather than refused, and on waking it acknowledges nothing
 * the new majority did not commit and serves no stale linearizable read.
 */
@Timeout(120)
class PausedLeaderTest {
  @TempDir Path dir;

  private static Map<String, String> persistent(String ip) {
    return Map.of("serviceName", "paused-leader", "ip", ip, "port", "80", "ephemeral", "false");
  }

  @Test
  void aPausedLeaderIsReplacedWhileAsleepAndServesNothingStaleOnWaking() throws Exception {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of())) {
      await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> c.leader() >= 0);
      int old = c.leader();
      List<Integer> others = IntStream.range(0, 3).filter(i -> i != old).boxed().toList();
      assertThat(c.http(old).post(NS + "/instance", persistent("127.0.8.1")).status()).isEqualTo(200);
      long oldTerm = c.node(old).raftStatus().term();

      Duration pause = Duration.ofSeconds(8);
      long pausedAt = System.nanoTime();
      c.pause(old, pause);
      CompletableFuture<Http.Response> held = CompletableFuture.supplyAsync(
          () -> c.http(old).post(NS + "/instance", persistent("127.0.8.2")));

      // The others elect a leader of a newer term while the old one sleeps.
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> others.stream()
          .anyMatch(i -> c.node(i).raftStatus().role().equals("LEADER") && c.node(i).raftStatus().term() > oldTerm));
      // They see it DOWN; its own pings are stalled, so it has not marked anyone DOWN.
      await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20)).until(() -> others.stream()
          .allMatch(i -> c.node(i).cluster().orElseThrow().members().state(c.address(old)) == MemberState.DOWN));
      assertThat(c.isPaused(old)).as("replaced within the pause").isTrue();
      for (int i : others) {
        assertThat(c.node(old).cluster().orElseThrow().members().state(c.address(i))).isNotEqualTo(MemberState.DOWN);
      }
      assertThat(held).as("its client's write is held, not answered").isNotDone();

      int survivor = others.get(0);
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).ignoreExceptions().until(() ->
          c.http(survivor).post(NS + "/instance", persistent("127.0.8.3")).status() == 200);
      assertThat(c.isPaused(old)).as("the majority wrote within the pause").isTrue();

      Http.Response late = held.get(30, TimeUnit.SECONDS);
      Duration answeredAfter = Duration.ofNanos(System.nanoTime() - pausedAt);
      System.out.printf("paused leader: write held %d ms, answered %d %s%n",
          answeredAfter.toMillis(), late.status(), late.body());
      assertThat(answeredAfter).isGreaterThanOrEqualTo(pause);
      assertThat(late.status()).as(late.body()).isIn(200, 503);

      // Whatever it acknowledged, every node holds; what the majority committed, it holds too.
      List<String> expected = late.status() == 200
          ? List.of("127.0.8.1:80", "127.0.8.2:80", "127.0.8.3:80")
          : List.of("127.0.8.1:80", "127.0.8.3:80");
      for (int i = 0; i < 3; i++) {
        int n = i;
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).untilAsserted(() ->
            assertThat(c.hosts(n, "paused-leader")).as(c.describe()).containsAll(expected));
      }
      assertThat(c.node(old).raftStatus().term()).isGreaterThan(oldTerm);
      // A linearizable read through the woken node never misses the write made while it slept.
      await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).ignoreExceptions().untilAsserted(() -> {
        Http.Response r = c.http(old).get(NS + "/instance/list",
            Map.of("serviceName", "paused-leader", "consistency", "linearizable"));
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body()).contains("127.0.8.3");
      });
    }
  }
}
