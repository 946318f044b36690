package dev.nacre.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nacre.naming.model.ServiceKey;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
 * Issue 11 §3: ephemeral writes that wait for a responsible member that does not answer (here
 * paused, as by a long GC) hold only the workers of their own kind; reads on the same node go on.
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
      ExecutorService writers = Executors.newFixedThreadPool(3 * workers);
      try {
        List<Future<Integer>> writes = new ArrayList<>();
        for (int i = 0; i < 3 * workers; i++) {
          String ip = "127.0.8." + (i + 1);
          writes.add(writers.submit(() -> c.http(asked).post("/nacos/v1/ns/instance",
              Map.of("serviceName", service.name(), "ip", ip, "port", "80")).status()));
        }
        String peerWorker = c.address(asked) + "-http-peer-";
        await().atMost(Duration.ofSeconds(5)).until(() -> Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().startsWith(peerWorker)).count() == workers);

        long start = System.nanoTime();
        var read = c.http(asked).get("/nacos/v1/ns/instance/list", Map.of("serviceName", service.name()));
        long tookMs = Duration.ofNanos(System.nanoTime() - start).toMillis();
        assertThat(read.status()).as(read.body()).isEqualTo(200);
        assertThat(tookMs).as("a read while every peer-waiting worker waits").isLessThan(1_500);
        assertThat(writes.stream().filter(f -> !f.isDone()).count()).as("writes still waiting").isPositive();
        for (Future<Integer> w : writes) {
          assertThat(w.get(30, TimeUnit.SECONDS)).as("applied here after the wait, or by the owner").isEqualTo(200);
        }
      } finally {
        writers.shutdownNow();
      }
    }
  }
}
