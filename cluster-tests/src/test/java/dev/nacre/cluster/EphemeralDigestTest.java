package dev.nacre.cluster;

import static dev.nacre.cluster.LocalCluster.NS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nacre.consensus.distro.DistroStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers on every node change the same instances at once; afterwards every node lists the same,
 * and the digests verify compares agree, so verify stops asking owners for their records. A digest
 * that counted a record its peers never got would keep them pulling every verify interval.
 */
@Timeout(180)
class EphemeralDigestTest {
  static final int WRITERS = 6;
  static final int WRITES_EACH = 150;
  static final List<String> SERVICES = List.of("digest-a", "digest-b", "digest-c");

  @TempDir Path dir;

  @Test
  void churnOnEveryNodeEndsWithDigestsThatAgree() throws Exception {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of())) {
      ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
      try {
        List<Future<?>> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
          int node = w % 3;
          Random random = new Random(7919L * w);
          writers.add(pool.submit(() -> {
            for (int i = 0; i < WRITES_EACH; i++) { // bounded: WRITES_EACH writes a writer
              String service = SERVICES.get(random.nextInt(SERVICES.size()));
              Map<String, String> instance = Map.of("serviceName", service,
                  "ip", "127.0.7." + (1 + random.nextInt(10)), "port", "80",
                  "weight", String.valueOf(1 + random.nextInt(5)));
              int status = random.nextInt(4) == 0
                  ? c.http(node).delete(NS + "/instance", instance).status()
                  : c.http(node).post(NS + "/instance", instance).status();
              assertThat(status).isEqualTo(200);
            }
            return null;
          }));
        }
        for (Future<?> f : writers) {
          f.get(120, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }

      await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
        for (String service : SERVICES) {
          List<String> reference = c.hosts(0, service);
          for (int node = 1; node < 3; node++) {
            assertThat(c.hosts(node, service)).as("%s on node %d\n%s", service, node, c.describe())
                .isEqualTo(reference);
          }
        }
      });
      // Verify runs every second here. Tombstones expire on each member at its own moment, which
      // may cost a pull; after that, three rounds in a row without a pull on any node.
      long[][] seen = {pulls(c)};
      long[] unchangedSince = {System.nanoTime()};
      await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(200)).until(() -> {
        long[] now = pulls(c);
        if (!java.util.Arrays.equals(now, seen[0])) {
          seen[0] = now;
          unchangedSince[0] = System.nanoTime();
        }
        return System.nanoTime() - unchangedSince[0] >= Duration.ofSeconds(3).toNanos();
      });
      assertThat(java.util.Arrays.stream(seen[0]).max().orElse(0)).as("most pulls on a node, churn included")
          .isLessThanOrEqualTo(10);
    }
  }

  private static long[] pulls(LocalCluster c) throws Exception {
    long[] out = new long[3];
    for (int node = 0; node < 3; node++) {
      DistroStatus s = c.node(node).cluster().orElseThrow().replicator().status().get(5, TimeUnit.SECONDS);
      out[node] = s.pulls();
    }
    return out;
  }
}
