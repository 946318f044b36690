package dev.nacre.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nacre.naming.model.ServiceKey;
import dev.nacre.node.testkit.Http;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11 §3: ephemeral writes and beats that wait for a responsible member that does not answer
 * (here paused, as by a long GC) hold no HTTP thread of the node they were sent to, whichever API
 * and kind they are; reads on the same node go on.
 */
@Timeout(120)
class SilentOwnerIsolationTest {
  @TempDir Path dir;

  @Test
  void readsGoOnWhileEphemeralWritesWaitForASilentResponsibleMember() throws Exception {
    int workers = 2;
    // Pings every 10 s: the paused member stays UP, and so responsible, for the whole test.
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of(
        "nacre.http.worker-threads", String.valueOf(workers), "nacre.cluster.ping-ms", "10000"))) {
      ServiceKey service = new ServiceKey("public", "DEFAULT_GROUP", "silent-owner");
      int owner = c.indexOf(c.node(0).cluster().orElseThrow().responsibleMember(service));
      int asked = (owner + 1) % 3;
      c.pause(owner, Duration.ofSeconds(6));
      List<String[]> writes = List.of(
          new String[] {"POST", "/nacos/v1/ns/instance"}, new String[] {"DELETE", "/nacos/v1/ns/instance"},
          new String[] {"PUT", "/nacos/v1/ns/instance/beat"}, new String[] {"POST", "/nacos/v2/ns/instance"},
          new String[] {"DELETE", "/nacos/v2/ns/instance"}, new String[] {"PUT", "/nacos/v2/ns/instance/beat"});
      int each = 3 * workers; // more than one pool could take
      ExecutorService writers = Executors.newFixedThreadPool(writes.size() * each);
      try {
        List<Future<Integer>> waiting = new ArrayList<>();
        for (int w = 0; w < writes.size(); w++) {
          String[] write = writes.get(w);
          for (int i = 0; i < each; i++) {
            Map<String, String> params = Map.of("serviceName", service.name(), "ip", "127.0." + (8 + w) + "." + (i + 1),
                "port", "80");
            waiting.add(writers.submit(() -> c.http(asked).send(write[0], write[1] + "?" + Http.query(params), null).status()));
          }
        }
        // Before they answered through a future each took a worker within a few milliseconds.
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofMillis(2500))
            .until(() -> httpThreadsWaitingForAMember(c.address(asked)) == 0);

        long start = System.nanoTime();
        var read = c.http(asked).get("/nacos/v1/ns/instance/list", Map.of("serviceName", service.name()));
        long tookMs = Duration.ofNanos(System.nanoTime() - start).toMillis();
        assertThat(read.status()).as(read.body()).isEqualTo(200);
        assertThat(tookMs).as("a read while ephemeral writes wait").isLessThan(1_500);
        assertThat(waiting.stream().filter(f -> !f.isDone()).count()).as("writes still waiting").isPositive();
        for (Future<Integer> w : waiting) {
          assertThat(w.get(30, TimeUnit.SECONDS)).as("applied here after the wait, or by the owner").isEqualTo(200);
        }
      } finally {
        writers.shutdownNow();
      }
    }
  }

  /** HTTP threads of the node whose stack is in a forward to the responsible member. */
  private static long httpThreadsWaitingForAMember(String address) {
    return Thread.getAllStackTraces().entrySet().stream()
        .filter(e -> e.getKey().getName().startsWith(address + "-http"))
        .filter(e -> Arrays.stream(e.getValue()).anyMatch(f -> f.getClassName().endsWith(".OwnerWrites")))
        .count();
  }
}
