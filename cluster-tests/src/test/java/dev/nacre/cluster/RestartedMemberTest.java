package dev.nacre.cluster;

import static org.awaitility.Awaitility.await;

import dev.nacre.node.cluster.MemberState;
import dev.nacre.node.config.NodeConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A member that restarts is UP on its peers once it pings them, not at their next ping of it (a
 * period later, and later still while gRPC spaces its reconnects). Until then its peers send it
 * none of their records: issue 10's restarted node must not serve a registry that lacks them.
 */
@Timeout(60)
class RestartedMemberTest {
  @TempDir Path dir;

  @Test
  void peersSeeARestartedMemberUpOnceItPingsThem() {
    // A ping every 5 s: without the answer to the member's own ping, its peers would see it UP at
    // their next ping of it, up to 5 s after it is ready.
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of(NodeConfig.PING_PERIOD, "5000"))) {
      String restarted = c.address(2);
      c.stopNode(2);
      await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(20))
          .until(() -> state(c, 0, restarted) != MemberState.UP && state(c, 1, restarted) != MemberState.UP);

      c.startNode(2); // returns once the member serves
      await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(10))
          .until(() -> state(c, 0, restarted) == MemberState.UP && state(c, 1, restarted) == MemberState.UP);
    }
  }

  private static MemberState state(LocalCluster c, int node, String member) {
    return c.node(node).cluster().orElseThrow().members().state(member);
  }
}
