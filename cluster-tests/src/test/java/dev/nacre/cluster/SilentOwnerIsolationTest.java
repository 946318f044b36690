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
 * paused, as by a long GC) hold no worker when they are registrations and only the workers of
 * their own kind when they are removals; reads on the same node go on.
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
      ExecutorService writers = Executors.newFixedThreadPool(6 * workers);
      try {
        String peerWorker = c.address(asked) + "-http-peer-";
        // Registrations wait for the silent member on no thread of the node.
        List<Future<Integer>> registrations = new ArrayList<>();
        for (int i = 0; i < 3 * workers; i++) {
          String ip = "127.0.8." + (i + 1);
          registrations.add(writers.submit(() -> c.http(asked).post("/nacos/v1/ns/instance",
              Map.of("serviceName", service.name(), "ip", ip, "port", "80")).status()));
        }
        // Before they answered through a future they held every worker within a few milliseconds.
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3))
            .until(() -> threadsNamed(peerWorker) == 0);
        // Deregistrations (which may end an operator's override, a Raft commit) still take a worker each.
        List<Future<Integer>> removals = new ArrayList<>();
        for (int i = 0; i < 3 * workers; i++) {
          String ip = "127.0.9." + (i + 1);
          removals.add(writers.submit(() -> c.http(asked).delete("/nacos/v1/ns/instance",
              Map.of("serviceName", service.name(), "ip", ip, "port", "80")).status()));
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> threadsNamed(peerWorker) == workers);

        long start = System.nanoTime();
        var read = c.http(asked).get("/nacos/v1/ns/instance/list", Map.of("serviceName", service.name()));
        long tookMs = Duration.ofNanos(System.nanoTime() - start).toMillis();
        assertThat(read.status()).as(read.body()).isEqualTo(200);
        assertThat(tookMs).as("a read while every peer-waiting worker waits").isLessThan(1_500);
        assertThat(registrations.stream().filter(f -> !f.isDone()).count()).as("registrations still waiting").isPositive();
        assertThat(removals.stream().filter(f -> !f.isDone()).count()).as("removals still waiting").isPositive();
        for (Future<Integer> w : registrations) {
          assertThat(w.get(30, TimeUnit.SECONDS)).as("applied here after the wait, or by the owner").isEqualTo(200);
        }
        for (Future<Integer> w : removals) {
          assertThat(w.get(30, TimeUnit.SECONDS)).as("applied here after the wait, or by the owner").isEqualTo(200);
        }
      } finally {
        writers.shutdownNow();
      }
    }
  }

  private static long threadsNamed(String prefix) {
    return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith(prefix)).count();
  }
}
