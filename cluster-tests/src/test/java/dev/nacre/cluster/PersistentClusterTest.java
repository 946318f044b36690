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

  /**
   * With election timeouts of 2-4 s, a new leader within 1 s of the old one's stop can only come
   * from a survivor that saw its connection to the leader close and stood for election at once
   * (otherwise the survivors wait at least 2 s from the leader's last heartbeat).
   */
  @Test
  void aStoppedLeaderIsReplacedWithoutWaitingForTheElectionTimeout() {
    Map<String, String> slowElections = Map.of(dev.nacre.node.config.NodeConfig.ELECTION_MIN, "2000",
        dev.nacre.node.config.NodeConfig.ELECTION_MAX, "4000", dev.nacre.node.config.NodeConfig.CP_TIMEOUT, "8000");
    try (LocalCluster c = LocalCluster.start(dir, 3, slowElections)) {
      awaitLeader(c);
      int old = c.leader();
      int survivor = (old + 1) % 3;
      assertThat(c.http(survivor).post(NS + "/instance", persistent("early", "127.0.0.11")).status()).isEqualTo(200);
      awaitHosts(c, (old + 2) % 3, "early", 1);

      c.stopNode(old); // returns once its Raft member stopped (the last part of a node to stop)
      long stopped = System.nanoTime();
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
          .until(() -> c.leader() >= 0 && c.leader() != old);
      long electedMs = Duration.ofNanos(System.nanoTime() - stopped).toMillis();
      System.out.printf("leader stop to new leader with 2-4 s election timeouts: %d ms%n", electedMs);
      assertThat(electedMs).as("new leader after the old one stopped, ms\n%s", c.describe()).isLessThan(1000);
      assertThat(c.http(survivor).post(NS + "/instance", persistent("early", "127.0.0.12")).status()).isEqualTo(200);
    }
  }
}
