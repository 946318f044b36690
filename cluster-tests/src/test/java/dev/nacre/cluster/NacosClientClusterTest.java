package dev.nacre.cluster;

import static dev.nacre.cluster.NacosClients.addresses;
import static dev.nacre.cluster.NacosClients.instance;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.alibaba.nacos.api.exception.NacosException;
import com.alibaba.nacos.api.naming.NamingService;
import com.alibaba.nacos.api.naming.listener.Event;
import com.alibaba.nacos.api.naming.listener.EventListener;
import com.alibaba.nacos.api.naming.listener.NamingEvent;
import com.alibaba.nacos.api.naming.pojo.Instance;
import com.alibaba.nacos.api.naming.pojo.ListView;
import com.alibaba.nacos.api.selector.ExpressionSelector;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code NamingService} method of the official Nacos 2.5.1 client against a 3-node cluster,
 * with writers and readers on different nodes.
 */
@Timeout(120)
class NacosClientClusterTest {
  static final Duration WAIT = Duration.ofSeconds(15);
  @TempDir static Path dir;
  static LocalCluster cluster;
  NacosClients clients;

  @BeforeAll
  static void startCluster() {
    cluster = LocalCluster.start(dir, 3, Map.of());
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @BeforeEach
  void openClients() {
    clients = new NacosClients();
  }

  @AfterEach
  void closeClients() {
    clients.close();
  }

  @Test
  void theServiceListKeepsWhatTheClientsSelectorMatches() throws Exception {
    NamingService writer = clients.connect(cluster.address(0));
    NamingService reader = clients.connect(cluster.address(1));
    writer.registerInstance("picked", "sel", instance(8101, null, 1.0, Map.of("zone", "a")));
    writer.registerInstance("passed-over", "sel", instance(8102, null, 1.0, Map.of("zone", "b")));
    await().atMost(WAIT).until(() -> reader.getServicesOfServer(1, 10, "sel").getCount() == 2);

    ExpressionSelector zoneA = new ExpressionSelector();
    zoneA.setExpression("INSTANCE.metadata.zone = 'a'");
    ListView<String> picked = reader.getServicesOfServer(1, 10, "sel", zoneA);
    assertThat(picked.getData()).containsExactly("picked");
    assertThat(picked.getCount()).isEqualTo(1);
  }

  /** What a listener heard: the instance lists of its NamingEvents, in order. */
  static final class Recorder implements EventListener {
    final List<List<Instance>> lists = new CopyOnWriteArrayList<>();

    /** A recorder that {@code client} has subscribed to {@code service}. */
    static Recorder subscribed(NamingService client, String service) throws NacosException {
      Recorder r = new Recorder();
      client.subscribe(service, r);
      return r;
    }

    @Override
    public void onEvent(Event event) {
      if (event instanceof NamingEvent e) {
        lists.add(List.copyOf(e.getInstances()));
      }
    }

    List<String> last() {
      return lists.isEmpty() ? List.of() : addresses(lists.get(lists.size() - 1));
    }
  }

  @Test
  void registerSubscribeQueryAndDeregisterAcrossNodes() throws Exception {
    NamingService writer = clients.connect(cluster.address(0));
    NamingService reader = clients.connect(cluster.address(1));
    Recorder heard = Recorder.subscribed(reader, "orders");
    assertThat(reader.getSubscribeServices()).extracting(s -> s.getName()).contains("orders");

    writer.registerInstance("orders", instance(8001, "c1", 2.5, Map.of("zone", "a")));
    Instance persistent = instance(8002, null, 1.0, Map.of("kind", "cp"));
    persistent.setEphemeral(false);
    writer.registerInstance("orders", persistent);
    Instance sick = instance(8003, null, 1.0, Map.of());
    sick.setHealthy(false);
    clients.connect(cluster.address(2)).registerInstance("orders", sick);

    await().atMost(WAIT).until(heard::last, l -> l.equals(List.of("127.0.0.1:8001", "127.0.0.1:8002", "127.0.0.1:8003")));
    for (int node = 0; node < 3; node++) {
      int n = node;
      await().atMost(WAIT).until(() -> cluster.hosts(n, "orders").size() == 3);
    }
    List<Instance> all = reader.getAllInstances("orders");
    Instance first = all.stream().filter(i -> i.getPort() == 8001).findFirst().orElseThrow();
    assertThat(first.getClusterName()).isEqualTo("c1");
    assertThat(first.getWeight()).isEqualTo(2.5);
    assertThat(first.getMetadata()).containsEntry("zone", "a");
    assertThat(first.isEphemeral()).isTrue();
    assertThat(first.getInstanceId()).isEqualTo("127.0.0.1#8001#c1#DEFAULT_GROUP@@orders");
    Instance second = all.stream().filter(i -> i.getPort() == 8002).findFirst().orElseThrow();
    assertThat(second.isEphemeral()).isFalse();
    assertThat(second.getClusterName()).isEqualTo("DEFAULT");
    assertThat(second.getMetadata()).containsEntry("kind", "cp");

    assertThat(addresses(reader.getAllInstances("orders", false))).hasSize(3);
    assertThat(addresses(reader.getAllInstances("orders", List.of("c1"), false))).containsExactly("127.0.0.1:8001");
    assertThat(addresses(reader.selectInstances("orders", true))).containsExactly("127.0.0.1:8001", "127.0.0.1:8002");
    assertThat(addresses(reader.selectInstances("orders", false))).containsExactly("127.0.0.1:8003");
    assertThat(addresses(reader.selectInstances("orders", true, false))).containsExactly("127.0.0.1:8001", "127.0.0.1:8002");
    assertThat(reader.selectOneHealthyInstance("orders").getPort()).isIn(8001, 8002);
    assertThat(reader.selectOneHealthyInstance("orders", List.of("c1"), false).getPort()).isEqualTo(8001);

    ListView<String> services = reader.getServicesOfServer(1, 100);
    assertThat(services.getData()).contains("orders");
    assertThat(services.getCount()).isGreaterThanOrEqualTo(1);

    writer.deregisterInstance("orders", "127.0.0.1", 8001, "c1");
    writer.deregisterInstance("orders", persistent);
    await().atMost(WAIT).until(heard::last, l -> l.equals(List.of("127.0.0.1:8003")));
    for (int node = 0; node < 3; node++) {
      int n = node;
      await().atMost(WAIT).until(() -> cluster.hosts(n, "orders").size() == 1);
    }

    reader.unsubscribe("orders", heard);
    assertThat(reader.getSubscribeServices()).extracting(s -> s.getName()).doesNotContain("orders");
  }

  @Test
  void batchRegistrationReplacesTheClientsSet() throws Exception {
    NamingService writer = clients.connect(cluster.address(1));
    NamingService reader = clients.connect(cluster.address(2));
    writer.batchRegisterInstance("batch", "DEFAULT_GROUP", List.of(
        instance(9001, null, 1.0, Map.of()), instance(9002, null, 1.0, Map.of()), instance(9003, null, 1.0, Map.of())));
    await().atMost(WAIT).until(() -> addresses(reader.getAllInstances("batch", false)).size() == 3);

    writer.batchRegisterInstance("batch", "DEFAULT_GROUP", List.of(
        instance(9002, null, 1.0, Map.of()), instance(9004, null, 1.0, Map.of())));
    await().atMost(WAIT).until(() -> addresses(reader.getAllInstances("batch", false)),
        l -> l.equals(List.of("127.0.0.1:9002", "127.0.0.1:9004")));

    writer.batchDeregisterInstance("batch", "DEFAULT_GROUP", List.of(instance(9002, null, 1.0, Map.of())));
    await().atMost(WAIT).until(() -> addresses(reader.getAllInstances("batch", false)),
        l -> l.equals(List.of("127.0.0.1:9004")));
    for (int node = 0; node < 3; node++) {
      int n = node;
      await().atMost(WAIT).until(() -> cluster.hosts(n, "batch"), l -> l.equals(List.of("127.0.0.1:9004")));
    }
  }

  @Test
  void reRegisteringReplacesAndShutDownRemovesEverywhere() throws Exception {
    NamingService writer = clients.connect(cluster.address(2));
    NamingService reader = clients.connect(cluster.address(0));
    Recorder heard = Recorder.subscribed(reader, "moving");

    writer.registerInstance("moving", instance(7001, null, 1.0, Map.of("v", "1")));
    writer.registerInstance("moving", instance(7001, null, 1.0, Map.of("v", "2")));
    await().atMost(WAIT).until(() -> heard.lists.stream().anyMatch(
        l -> l.size() == 1 && "2".equals(l.get(0).getMetadata().get("v"))));
    // One instance per service per connection: a new address replaces the old one.
    writer.registerInstance("moving", instance(7002, null, 1.0, Map.of()));
    await().atMost(WAIT).until(heard::last, l -> l.equals(List.of("127.0.0.1:7002")));

    writer.shutDown();
    await().atMost(WAIT).until(heard::last, List::isEmpty);
    for (int node = 0; node < 3; node++) {
      int n = node;
      await().atMost(WAIT).until(() -> cluster.hosts(n, "moving").isEmpty());
    }
  }
}
