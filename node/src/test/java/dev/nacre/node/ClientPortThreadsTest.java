package dev.nacre.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.node.config.ClientSettings;
import dev.nacre.node.config.NodeConfig;
import dev.nacre.node.testkit.RawNacosClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** nacre.client.io-threads: how many threads serve the client gRPC port, whatever the connections. */
class ClientPortThreadsTest {
  @TempDir Path dir;

  @Test
  void theClientPortServesEveryConnectionOnTheConfiguredThreads() throws Exception {
    assertThat(threadsServing(1)).isEqualTo(1);
    assertThat(threadsServing(2)).isEqualTo(2);
  }

  @Test
  void theDefaultIsHalfTheProcessorsAndAtLeastOne() {
    int processors = Runtime.getRuntime().availableProcessors();
    assertThat(NodeConfig.from(new Properties()).client().ioThreads())
        .isEqualTo(ClientSettings.defaultIoThreads())
        .isEqualTo(Math.max(1, processors / 2));
  }

  /** Starts a node with {@code ioThreads}, answers four connections, counts its client-port threads. */
  private long threadsServing(int ioThreads) throws Exception {
    try (TestNode node = TestNode.start(dir.resolve("n" + ioThreads),
        Map.of(NodeConfig.CLIENT_IO_THREADS, Integer.toString(ioThreads)))) {
      List<RawNacosClient> clients = new ArrayList<>();
      try {
        for (int i = 0; i < 4; i++) {
          RawNacosClient c = new RawNacosClient(node.node().config().clientGrpcPort());
          clients.add(c);
          assertThat(c.call("ServerCheckRequest", "{}").resultCode()).isEqualTo(200);
        }
        String prefix = "client-grpc-io-" + node.node().config().address() + "-";
        return Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().startsWith(prefix))
            .count();
      } finally {
        for (RawNacosClient c : clients) {
          c.close();
        }
      }
    }
  }
}
