package dev.nacre.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.alibaba.nacos.api.config.ConfigService;
import com.alibaba.nacos.api.config.listener.AbstractListener;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official Nacos 2.5.1 ConfigService against a 3-node cluster: what one member takes, every
 * member serves, and listeners on every member hear of it.
 */
@Timeout(120)
class NacosConfigClusterTest {
  private static final Duration WAIT = Duration.ofSeconds(15);
  @TempDir static Path dir;
  private static LocalCluster cluster;
  private final NacosClients clients = new NacosClients();

  @BeforeAll
  static void startCluster() {
    cluster = LocalCluster.start(dir, 3, Map.of());
    cluster.awaitSettled();
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @AfterEach
  void closeClients() {
    clients.close();
  }

  private ConfigService connect(int node, String namespace) {
    return clients.config(namespace, cluster.address(node));
  }

  @Test
  void listenersOnOtherMembersHearAPublish() throws Exception {
    ConfigService writer = connect(0, null);
    List<List<String>> heard = new ArrayList<>();
    for (int i = 1; i < 3; i++) {
      List<String> into = new CopyOnWriteArrayList<>();
      heard.add(into);
      connect(i, null).addListener("shared", "G", new AbstractListener() {
        @Override
        public void receiveConfigInfo(String configInfo) {
          into.add(String.valueOf(configInfo));
        }
      });
    }
    assertThat(writer.publishConfig("shared", "G", "v1")).isTrue();
    await().atMost(WAIT).until(() -> heard.stream().allMatch(h -> h.contains("v1")));
    assertThat(writer.publishConfig("shared", "G", "v2")).isTrue();
    await().atMost(WAIT).until(() -> heard.stream().allMatch(h -> h.contains("v2")));
    assertThat(connect(2, null).getConfig("shared", "G", 3000)).isEqualTo("v2");
  }

  @Test
  void namespacesIsolate() throws Exception {
    ConfigService dev = connect(0, "dev");
    ConfigService pub = connect(1, null);
    assertThat(dev.publishConfig("iso", "G", "in dev")).isTrue();
    assertThat(pub.publishConfig("iso", "G", "in public")).isTrue();
    ConfigService devElsewhere = connect(2, "dev");
    ConfigService pubElsewhere = connect(2, null);
    await().atMost(WAIT).until(() -> "in dev".equals(devElsewhere.getConfig("iso", "G", 3000)));
    await().atMost(WAIT).until(() -> "in public".equals(pubElsewhere.getConfig("iso", "G", 3000)));
  }
}
