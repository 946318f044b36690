package dev.nacre.cluster;

import static dev.nacre.cluster.LocalCluster.NS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A partition of a 3-node cluster into {0} | {1, 2}: CP writes only on the majority, AP writes on
 * both sides, and one view everywhere soon after the heal.
 */
@Timeout(180)
class PartitionConvergenceTest {
  /** After a heal: a ping period to see the others again, a verify period, and slack for a 2-core box. */
  static final Duration CONVERGENCE = Duration.ofMillis(200 + 1_000 + 1_000 + 1_000);

  @TempDir Path dir;

  static Map<String, String> ephemeral(String service, String ip) {
    return Map.of("serviceName", service, "ip", ip, "port", "80");
  }

  /** Waits until every node lists exactly {@code expected}; returns how long that took. */
  static Duration awaitConverged(LocalCluster c, String service, List<String> expected, Duration atMost) {
    long start = System.nanoTime();
    await().atMost(atMost).pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
      for (int i = 0; i < c.size(); i++) {
        assertThat(c.hosts(i, service)).as("node %d\n%s", i, c.describe()).isEqualTo(expected);
      }
    });
    return Duration.ofNanos(System.nanoTime() - start);
  }

  @Test
  void aMinorityRefusesCpWritesAndApWritesOnBothSidesConvergeAfterHeal() {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of())) {
      RaftPartitionTest.awaitLeader(c);
      assertThat(c.http(0).post(NS + "/instance", ephemeral("ap", "127.0.8.1")).status()).isEqualTo(200);
      awaitConverged(c, "ap", List.of("127.0.8.1:80"), Duration.ofSeconds(10));

      c.partition(List.of(0));
      // Each side gives the other up, so that AP writes are owned on the side that takes them.
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
        assertThat(c.node(0).cluster().orElseThrow().members().ownershipMembers()).containsExactly(c.address(0));
        assertThat(c.node(1).cluster().orElseThrow().members().ownershipMembers()).containsExactlyInAnyOrder(c.address(1), c.address(2));
      });

      long start = System.nanoTime();
      var refused = c.http(0).post(NS + "/instance", RaftPartitionTest.persistent("cp", "127.0.8.100"));
      long ms = Duration.ofNanos(System.nanoTime() - start).toMillis();
      assertThat(refused.status()).as(refused.body()).isEqualTo(503);
      assertThat(ms).as("a minority refuses within the CP timeout (3 s) plus slack").isLessThan(4_500);
      await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50)).ignoreExceptions().until(() ->
          c.http(1).post(NS + "/instance", RaftPartitionTest.persistent("cp", "127.0.8.101")).status() == 200);

      List<String> expected = new ArrayList<>(List.of("127.0.8.1:80"));
      for (int k = 0; k < 5; k++) {
        assertThat(c.http(0).post(NS + "/instance", ephemeral("ap", "127.0.8." + (10 + k))).status()).isEqualTo(200);
        assertThat(c.http(1 + k % 2).post(NS + "/instance", ephemeral("ap", "127.0.8." + (20 + k))).status()).isEqualTo(200);
        expected.add("127.0.8." + (10 + k) + ":80");
        expected.add("127.0.8." + (20 + k) + ":80");
      }
      expected.sort(String::compareTo);
      assertThat(c.hosts(0, "ap")).doesNotContain("127.0.8.20:80");
      assertThat(c.hosts(1, "ap")).doesNotContain("127.0.8.10:80");

      c.faults().heal();
      Duration took = awaitConverged(c, "ap", expected, CONVERGENCE);
      System.out.printf("AP convergence after heal: %d ms%n", took.toMillis());
      await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).untilAsserted(() ->
          assertThat(c.hosts(0, "cp")).containsExactly("127.0.8.101:80"));
    }
  }
}
