package dev.nacre.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.alibaba.nacos.api.config.ConfigService;
import com.alibaba.nacos.api.config.listener.AbstractListener;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A listener of the official 2.5.1 ConfigService survives the death of the member it listens on:
 * the client moves to another member and listens again there, comparing md5s, so it hears a change
 * made while it was moving as well as the ones after.
 */
@Timeout(180)
class NacosConfigFailoverTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  @TempDir Path dir;

  @Test
  void aListenerMovesWithItsClientWhenItsMemberDiesAndHearsEveryLaterChange() throws Exception {
    try (LocalCluster cluster = LocalCluster.start(dir, 3, Map.of()); NacosClients clients = new NacosClients()) {
      cluster.awaitSettled();
      ConfigService listening = clients.config(null, IntStream.range(0, 3).mapToObj(cluster::address)
          .toArray(String[]::new));
      List<String> heard = new CopyOnWriteArrayList<>();
      listening.addListener("moving", "G", new AbstractListener() {
        @Override
        public void receiveConfigInfo(String configInfo) {
          heard.add(String.valueOf(configInfo));
        }
      });
      int home = memberHoldingTheOnlyClient(cluster);
      int other = (home + 1) % 3;
      ConfigService writer = clients.config(null, cluster.address(other));
      assertThat(writer.publishConfig("moving", "G", "before")).isTrue();
      await().atMost(WAIT).until(() -> heard.contains("before"));

      cluster.stopNode(home);
      // Published while the listening client has lost its member and not yet listened elsewhere.
      await().atMost(WAIT).ignoreExceptions().until(() -> writer.publishConfig("moving", "G", "while-moving"));
      await().atMost(WAIT).until(() -> heard.contains("while-moving"));

      assertThat(writer.publishConfig("moving", "G", "after")).isTrue();
      await().atMost(WAIT).until(() -> heard.contains("after"));
      assertThat(heard.get(heard.size() - 1)).isEqualTo("after");
    }
  }

  /** The member the one client connected so far is connected to. */
  private static int memberHoldingTheOnlyClient(LocalCluster cluster) {
    return await().atMost(WAIT).until(() -> {
      for (int i = 0; i < cluster.size(); i++) {
        if (!cluster.node(i).clientConnections().registeredIds().isEmpty()) {
          return i;
        }
      }
      return -1;
    }, i -> i >= 0);
  }
}
