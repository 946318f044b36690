package dev.nacre.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nacre.node.config.NodeConfig;
import dev.nacre.node.testkit.RawNacosClient;
import dev.nacre.node.testkit.RawNacosClient.Reply;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Client port limits: nacre.client.writes-per-second (a connection's writes beyond it) and
 * nacre.client.max-connections-per-ip (connections beyond it) get Nacos' over-threshold error.
 */
class ClientLimitsTest {
  @TempDir Path dir;

  @Test
  void writesBeyondAConnectionsAllowanceAreRefusedReadsAndOtherConnectionsAreNot() throws Exception {
    try (TestNode node = TestNode.start(dir.resolve("n"), Map.of(NodeConfig.CLIENT_WRITES_PER_SECOND, "5"));
        RawNacosClient busy = new RawNacosClient(node.node().config().clientGrpcPort());
        RawNacosClient other = new RawNacosClient(node.node().config().clientGrpcPort())) {
      for (RawNacosClient c : new RawNacosClient[] {busy, other}) {
        c.setUp();
        c.next("SetupAckRequest", Duration.ofSeconds(5));
      }
      int accepted = 0;
      int refused = 0;
      long start = System.nanoTime();
      for (int i = 0; i < 30; i++) {
        Reply r = busy.call("InstanceRequest", register("limited-" + i, 7000 + i));
        if (r.resultCode() == 200) {
          accepted++;
        } else {
          refused++;
          assertThat(r.errorCode()).isEqualTo(503);
          assertThat(r.body().get("message").asText()).contains("Over threshold").contains("nacre.client.writes-per-second");
        }
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      assertThat(accepted).as("at 5 a second, in %.2f s", seconds).isLessThanOrEqualTo(2 + (int) Math.ceil(5 * seconds));
      assertThat(refused).isEqualTo(30 - accepted).isPositive();

      // Reads are not writes; another connection has its own allowance.
      Reply query = busy.call("ServiceQueryRequest", "{\"headers\":{},\"namespace\":\"public\",\"serviceName\":"
          + "\"limited-0\",\"groupName\":\"DEFAULT_GROUP\",\"cluster\":\"\",\"healthyOnly\":false,\"udpPort\":0}");
      assertThat(query.resultCode()).isEqualTo(200);
      assertThat(other.call("InstanceRequest", register("limited-other", 7100)).resultCode()).isEqualTo(200);

      // The allowance comes back with time.
      await().atMost(Duration.ofSeconds(3)).untilAsserted(() ->
          assertThat(busy.call("InstanceRequest", register("limited-later", 7200)).resultCode()).isEqualTo(200));
    }
  }

  @Test
  void aConnectionBeyondTheLimitOfItsIpIsRefusedUntilAnotherCloses() throws Exception {
    try (TestNode node = TestNode.start(dir.resolve("n"), Map.of(NodeConfig.CLIENT_MAX_CONNECTIONS_PER_IP, "2"))) {
      int port = node.node().config().clientGrpcPort();
      RawNacosClient first = new RawNacosClient(port);
      try (RawNacosClient second = new RawNacosClient(port); RawNacosClient third = new RawNacosClient(port)) {
        assertThat(first.call("ServerCheckRequest", "{}").resultCode()).isEqualTo(200);
        assertThat(second.call("ServerCheckRequest", "{}").resultCode()).isEqualTo(200);
        Reply refused = third.call("ServerCheckRequest", "{}");
        assertThat(refused.errorCode()).isEqualTo(503);
        assertThat(refused.body().get("message").asText())
            .contains("127.0.0.1 holds 2 client connections").contains("nacre.client.max-connections-per-ip");
        assertThat(third.call("InstanceRequest", register("refused", 7300)).errorCode())
            .as("nothing else either").isEqualTo(503);

        first.close();
        third.close(); // a refused connection holds a socket too, so it counts until it closes
        // The transport's end reaches the server a moment after the client closed it.
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
          try (RawNacosClient again = new RawNacosClient(port)) {
            assertThat(again.call("ServerCheckRequest", "{}").resultCode()).isEqualTo(200);
          }
        });
      }
    }
  }

  private static String register(String service, int port) {
    return ClientGrpcProtocolTest.instanceRequest(service, "registerInstance", ClientGrpcProtocolTest.instance(port));
  }
}
