package dev.nacre.cluster;

import static dev.nacre.cluster.LocalCluster.NS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nacre.node.config.NodeConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What the responsible member's probes find is what every member shows. */
@Timeout(120)
class PersistentHealthClusterTest {
  @TempDir Path dir;

  private static boolean healthyOn(LocalCluster c, int node, int port) {
    var r = c.http(node).get(NS + "/instance", Map.of("serviceName", "probed", "ip", "127.0.0.1", "port", String.valueOf(port)));
    assertThat(r.status()).as("node %d detail", node).isEqualTo(200);
    return LocalCluster.json(r).get("healthy").asBoolean();
  }

  @Test
  void probedHealthReachesEveryMember() throws IOException {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of(NodeConfig.PROBE_PERIOD, "200"))) {
      await().atMost(Duration.ofSeconds(20)).until(() -> c.leader() >= 0);
      ServerSocket open = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      int port = open.getLocalPort();
      assertThat(c.http(0).post(NS + "/instance", Map.of("serviceName", "probed", "ip", "127.0.0.1",
          "port", String.valueOf(port), "ephemeral", "false", "healthy", "false")).status()).isEqualTo(200);
      await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).ignoreExceptions().until(() ->
          healthyOn(c, 0, port) && healthyOn(c, 1, port) && healthyOn(c, 2, port));
      open.close();
      await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).ignoreExceptions().until(() ->
          !healthyOn(c, 0, port) && !healthyOn(c, 1, port) && !healthyOn(c, 2, port));
    }
  }
}
