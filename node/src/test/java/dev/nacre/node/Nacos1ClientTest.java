package dev.nacre.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.alibaba.nacos.api.naming.NamingFactory;
import com.alibaba.nacos.api.naming.NamingService;
import com.alibaba.nacos.api.naming.listener.EventListener;
import com.alibaba.nacos.api.naming.listener.NamingEvent;
import com.alibaba.nacos.api.naming.pojo.Instance;
import com.alibaba.nacos.api.naming.pojo.ListView;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official Nacos 1.4.8 Java client (HTTP v1 API, beats, UDP push) against one real node.
 * Each test uses its own service: the client's event bus is JVM-wide.
 */
@Timeout(90)
class Nacos1ClientTest {
  @TempDir static Path dir;
  static TestNode node;
  static NamingService provider;
  static NamingService consumer;

  @BeforeAll
  static void start() throws Exception {
    // A fast scan, so that a missing beat would show within the test.
    node = TestNode.start(dir, Map.of("nacre.naming.heartbeat.scan-ms", "200"));
    provider = client(node);
    consumer = client(node);
  }

  @AfterAll
  static void stop() throws Exception {
    if (provider != null) {
      provider.shutDown();
    }
    if (consumer != null) {
      consumer.shutDown();
    }
    if (node != null) {
      node.close();
    }
  }

  static NamingService client(TestNode n) throws Exception {
    Properties p = new Properties();
    p.setProperty("serverAddr", "127.0.0.1:" + n.node().config().port());
    return NamingFactory.createNamingService(p);
  }

  /** Beats every 500 ms; unhealthy after 1.5 s and removed after 3 s without them. */
  static Instance instance(int port, String cluster, Map<String, String> metadata) {
    Instance i = new Instance();
    i.setIp("127.0.0.1");
    i.setPort(port);
    i.setClusterName(cluster);
    i.setWeight(2.5);
    java.util.HashMap<String, String> m = new java.util.HashMap<>(metadata);
    m.put("preserved.heart.beat.interval", "500");
    m.put("preserved.heart.beat.timeout", "1500");
    m.put("preserved.ip.delete.timeout", "3000");
    i.setMetadata(m);
    return i;
  }

  static List<String> ports(List<Instance> instances) {
    return instances.stream().map(i -> i.getClusterName() + ":" + i.getPort()).sorted().toList();
  }

  @Test
  void registerListAndSelectWithMetadataWeightAndCluster() throws Exception {
    provider.registerInstance("reg", instance(8001, "c1", Map.of("zone", "a")));
    provider.registerInstance("reg", instance(8002, "c2", Map.of("zone", "b")));
    await().atMost(Duration.ofSeconds(10))
        .until(() -> ports(consumer.getAllInstances("reg", false)).equals(List.of("c1:8001", "c2:8002")));
    Instance first = consumer.getAllInstances("reg", List.of("c1"), false).get(0);
    assertThat(first.getWeight()).isEqualTo(2.5);
    assertThat(first.getMetadata()).containsEntry("zone", "a");
    assertThat(first.isEphemeral()).isTrue();
    assertThat(first.isHealthy()).isTrue();
    assertThat(first.getServiceName()).isEqualTo("DEFAULT_GROUP@@reg");
    assertThat(ports(consumer.selectInstances("reg", true, false))).containsExactly("c1:8001", "c2:8002");
    // Subscribed queries are served from the client's cache, filled by the list call and pushes.
    await().atMost(Duration.ofSeconds(10))
        .until(() -> ports(consumer.selectInstances("reg", List.of("c2"), true)).equals(List.of("c2:8002")));
    ListView<String> services = consumer.getServicesOfServer(1, 100);
    assertThat(services.getData()).contains("reg");
    assertThat(services.getCount()).isGreaterThanOrEqualTo(1);
    assertThat(consumer.getServerStatus()).isEqualTo("UP");
  }

  @Test
  void beatsKeepAnInstanceAliveAndItGoesWhenTheyStop() throws Exception {
    NamingService shortLived = client(node);
    shortLived.registerInstance("beats", instance(8101, "DEFAULT", Map.of()));
    await().atMost(Duration.ofSeconds(10)).until(() -> consumer.getAllInstances("beats", false).size() == 1);
    // Four times the delete timeout: without beats it would have been removed.
    await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(8))
        .until(() -> consumer.selectInstances("beats", true, false).size() == 1);
    shortLived.shutDown();
    await().atMost(Duration.ofSeconds(10)).until(() -> consumer.getAllInstances("beats", false).isEmpty());
  }

  @Test
  void aListenerGetsChangesByUdpPushUntilItUnsubscribes() throws Exception {
    List<List<String>> events = new CopyOnWriteArrayList<>();
    EventListener listener = e -> events.add(ports(((NamingEvent) e).getInstances()));
    provider.registerInstance("pushed", instance(8201, "DEFAULT", Map.of()));
    consumer.subscribe("pushed", listener);
    await().atMost(Duration.ofSeconds(10)).until(() -> events.contains(List.of("DEFAULT:8201")));
    long ackedBefore = node.node().udp().channel().ackedPushes();

    provider.registerInstance("pushed", instance(8202, "DEFAULT", Map.of()));
    // The client polls every 10 s; a change within 3 s came by push.
    await().atMost(Duration.ofSeconds(3)).until(() -> events.contains(List.of("DEFAULT:8201", "DEFAULT:8202")));
    assertThat(node.node().udp().channel().ackedPushes()).isGreaterThan(ackedBefore);

    provider.deregisterInstance("pushed", "127.0.0.1", 8201);
    await().atMost(Duration.ofSeconds(3)).until(() -> events.get(events.size() - 1).equals(List.of("DEFAULT:8202")));
    assertThat(ports(consumer.getAllInstances("pushed", false))).containsExactly("DEFAULT:8202");

    consumer.unsubscribe("pushed", listener);
    int seen = events.size();
    provider.registerInstance("pushed", instance(8203, "DEFAULT", Map.of()));
    await().atMost(Duration.ofSeconds(10)).until(() -> consumer.getAllInstances("pushed", false).size() == 2);
    await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> events.size() == seen);
  }

  @Test
  void aClusterFilteredSubscriptionGetsOnlyItsClusters() throws Exception {
    List<List<String>> events = new CopyOnWriteArrayList<>();
    consumer.subscribe("filtered", List.of("b", "a"), e -> events.add(ports(((NamingEvent) e).getInstances())));
    provider.registerInstance("filtered", instance(8301, "a", Map.of()));
    provider.registerInstance("filtered", instance(8302, "c", Map.of()));
    provider.registerInstance("filtered", instance(8303, "b", Map.of()));
    await().atMost(Duration.ofSeconds(10)).until(() -> events.contains(List.of("a:8301", "b:8303")));
    assertThat(events).allSatisfy(e -> assertThat(e).doesNotContain("c:8302"));
    assertThat(ports(consumer.getAllInstances("filtered", List.of("b", "a")))).containsExactly("a:8301", "b:8303");
  }
}
