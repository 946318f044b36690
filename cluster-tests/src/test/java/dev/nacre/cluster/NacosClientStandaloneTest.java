package dev.nacre.cluster;

import static dev.nacre.cluster.NacosClients.addresses;
import static dev.nacre.cluster.NacosClients.instance;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.alibaba.nacos.api.naming.NamingService;
import com.alibaba.nacos.api.naming.pojo.Instance;
import dev.nacre.node.Node;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The official Nacos 2.5.1 client against one standalone node. */
@Timeout(90)
class NacosClientStandaloneTest {
  @TempDir Path dir;

  @Test
  void registerQueryDeregisterEphemeralAndPersistent() throws Exception {
    try (Node node = StandaloneNode.start(dir.resolve("n"), Map.of()); NacosClients clients = new NacosClients()) {
      NamingService ns = clients.connect(StandaloneNode.address(node));
      assertThat(ns.getServerStatus()).isEqualTo("UP");

      ns.registerInstance("solo", instance(7001, "c1", 3.0, Map.of("k", "v")));
      Instance persistent = instance(7002, null, 1.0, Map.of());
      persistent.setEphemeral(false);
      ns.registerInstance("solo", persistent);

      List<Instance> all = ns.getAllInstances("solo", false);
      assertThat(addresses(all)).containsExactly("127.0.0.1:7001", "127.0.0.1:7002");
      Instance eph = all.stream().filter(i -> i.getPort() == 7001).findFirst().orElseThrow();
      assertThat(eph.getClusterName()).isEqualTo("c1");
      assertThat(eph.getWeight()).isEqualTo(3.0);
      assertThat(eph.getMetadata()).containsEntry("k", "v");
      assertThat(eph.isEphemeral()).isTrue();
      assertThat(all.stream().filter(i -> i.getPort() == 7002).findFirst().orElseThrow().isEphemeral()).isFalse();
      assertThat(node.clientConnections().registeredIds()).hasSize(1);

      ns.deregisterInstance("solo", "127.0.0.1", 7001, "c1");
      assertThat(addresses(ns.getAllInstances("solo", false))).containsExactly("127.0.0.1:7002");

      ns.shutDown();
      // Persistent instances outlive the client; its connection is gone.
      await().atMost(Duration.ofSeconds(5)).until(() -> node.clientConnections().registeredIds().isEmpty());
      NamingService other = clients.connect(StandaloneNode.address(node));
      assertThat(addresses(other.getAllInstances("solo", false))).containsExactly("127.0.0.1:7002");
      other.deregisterInstance("solo", persistent);
      assertThat(other.getAllInstances("solo", false)).isEmpty();
    }
  }
}
