package dev.nacre.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.alibaba.nacos.api.naming.NamingService;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * After a rolling restart left every official client on the member that came up first (Nacos'
 * issue #9245), the members spread them again, and no consumer sees an instance vanish while its
 * client moves.
 */
@Timeout(180)
class ClientRebalanceTest {
  private static final int CLIENTS = 6;
  @TempDir Path dir;

  private static int clientCount(LocalCluster c, int node) {
    return LocalCluster.json(c.http(node).get("/nacos/v1/ns/operator/metrics", Map.of())).path("clientCount").asInt();
  }

  @Test
  void clientsAllOnOneMemberSpreadOverTheOthersWithoutAGap() throws Exception {
    try (LocalCluster c = LocalCluster.startOnDistinctHosts(dir, 3, Map.of("nacre.client.rebalance-period-ms", "500"));
        NacosClients clients = new NacosClients()) {
      c.stopNode(1);
      c.stopNode(2);
      for (int i = 0; i < CLIENTS; i++) {
        NamingService ns = clients.connect(c.address(0), c.address(1), c.address(2));
        ns.registerInstance("spread", NacosClients.instance(9000 + i, null, 1.0, Map.of()));
      }
      await().atMost(Duration.ofSeconds(20)).until(() -> c.hosts(0, "spread").size() == CLIENTS);
      assertThat(clientCount(c, 0)).as("every client is on the only member up").isEqualTo(CLIENTS);

      AtomicBoolean watching = new AtomicBoolean(true);
      AtomicInteger fewest = new AtomicInteger(CLIENTS);
      // Samples node 0's answer every 20 ms until the moves are checked (at most 120 s).
      Thread watcher = new Thread(() -> await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(20))
          .until(() -> {
            fewest.accumulateAndGet(c.hosts(0, "spread").size(), Math::min);
            return !watching.get();
          }), "gap-watcher");
      watcher.start();
      try {
        c.startNode(1);
        c.startNode(2);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
          int[] counts = {clientCount(c, 0), clientCount(c, 1), clientCount(c, 2)};
          assertThat(counts[0] + counts[1] + counts[2]).as("clients %s", Arrays.toString(counts))
              .isEqualTo(CLIENTS);
          // A share of 2 each; a member stops shedding at its share plus a slack of one.
          assertThat(Arrays.stream(counts).boxed().toList()).as("clients per member")
              .allSatisfy(n -> assertThat(n).isBetween(1, 3));
        });
        for (int node = 0; node < 3; node++) {
          int n = node;
          await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
              assertThat(c.hosts(n, "spread")).as("node %d", n).hasSize(CLIENTS));
        }
      } finally {
        watching.set(false);
        watcher.join();
      }
      assertThat(fewest.get()).as("instances listed on node 0 while clients moved").isEqualTo(CLIENTS);
    }
  }
}
