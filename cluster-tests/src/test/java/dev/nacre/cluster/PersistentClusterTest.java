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

/** Persistent (CP) instances on a 3-node Raft group: any node writes, failover, restart, wipe. */
@Timeout(240)
class PersistentClusterTest {
  @TempDir Path dir;

  private static Map<String, String> persistent(String service, String ip) {
    return Map.of("serviceName", service, "ip", ip, "port", "80", "ephemeral", "false");
  }

  private static void awaitLeader(LocalCluster c) {
    await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> c.leader() >= 0);
  }

  private static void awaitHosts(LocalCluster c, int node, String service, int count) {
    await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
        .untilAsserted(() -> assertThat(c.hosts(node, service)).as("node %d\n%s", node, c.describe()).hasSize(count));
  }

  @Test
  void writesOnAnyNodeSurviveLeaderLossRestartAndWipe() {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of())) {
      awaitLeader(c);
      for (int i = 0; i < 3; i++) {
        assertThat(c.http(i).post(NS + "/instance", persistent("cp", "127.0.5." + (i + 1))).status()).isEqualTo(200);
      }
      for (int i = 0; i < 3; i++) {
        // Acknowledged on the node that answered; followers apply shortly after.
        awaitHosts(c, i, "cp", 3);
      }
      var linearizable = c.http((c.leader() + 1) % 3).get(NS + "/instance/list", Map.of("serviceName", "cp", "consistency", "linearizable"));
      assertThat(LocalCluster.json(linearizable).get("hosts")).hasSize(3);

      int oldLeader = c.leader();
      long killed = System.nanoTime();
      c.stopNode(oldLeader);
      int survivor = (oldLeader + 1) % 3;
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).ignoreExceptions().until(() ->
          c.http(survivor).post(NS + "/instance", persistent("cp", "127.0.5.10")).status() == 200);
      System.out.printf("leader kill to next CP write: %d ms%n", Duration.ofNanos(System.nanoTime() - killed).toMillis());

      c.startNode(oldLeader);
      awaitHosts(c, oldLeader, "cp", 4);

      c.wipeNode(survivor);
      c.http(oldLeader).post(NS + "/instance", persistent("cp", "127.0.5.11"));
      c.startNode(survivor);
      awaitHosts(c, survivor, "cp", 5);
    }
  }

  @Test
  void aMinorityRefusesCpWritesWithin3sAndCatchesUpAfterwards() {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of())) {
      awaitLeader(c);
      int lone = (c.leader() + 1) % 3;
      List<Integer> others = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        if (i != lone) {
          others.add(i);
        }
      }
      others.forEach(c::stopNode);
      long start = System.nanoTime();
      var r = c.http(lone).post(NS + "/instance", persistent("minority", "127.0.6.1"));
      long ms = Duration.ofNanos(System.nanoTime() - start).toMillis();
      assertThat(r.status()).isEqualTo(503);
      assertThat(r.body()).containsIgnoringCase("quorum");
      assertThat(ms).isLessThan(4_500);
      assertThat(c.http(lone).get(NS + "/instance/list", Map.of("serviceName", "minority", "consistency", "linearizable")).status()).isEqualTo(503);

      others.forEach(c::startNode);
      await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).ignoreExceptions().until(() ->
          c.http(lone).post(NS + "/instance", persistent("minority", "127.0.6.2")).status() == 200);
      for (int i = 0; i < 3; i++) {
        int n = i;
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
            assertThat(c.hosts(n, "minority")).contains("127.0.6.2:80"));
      }
    }
  }
}
