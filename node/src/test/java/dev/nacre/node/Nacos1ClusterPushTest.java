package dev.nacre.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.alibaba.nacos.api.naming.NamingFactory;
import com.alibaba.nacos.api.naming.NamingService;
import com.alibaba.nacos.api.naming.listener.NamingEvent;
import com.alibaba.nacos.api.naming.pojo.Instance;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.node.cluster.ClusterServices;
import dev.nacre.node.config.NodeConfig;
import dev.nacre.node.testkit.FreePorts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nacos 1.4.8 clients on a 3-node cluster in this JVM: an instance registered through node A
 * reaches, by UDP push, the listener of a client that talks only to node B. Prints the latency
 * from registration to callback.
 */
@Timeout(180)
class Nacos1ClusterPushTest {
  private static final int ROUNDS = 50;
  @TempDir Path dir;
  private final List<Node> nodes = new ArrayList<>();
  private final List<NamingService> clients = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (NamingService c : clients) {
      c.shutDown();
    }
    nodes.forEach(Node::close);
  }

  private void startCluster(int size) {
    List<Integer> ports = new ArrayList<>();
    while (ports.size() < size) {
      int p = FreePorts.mainPort();
      if (ports.stream().noneMatch(q -> Math.abs(q - p) <= 1001 && (q == p || q - 1000 == p || q + 1000 == p
          || q + 1001 == p || p + 1001 == q))) {
        ports.add(p);
      }
    }
    String members = ports.stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
    String secret = "test-secret-" + UUID.randomUUID();
    for (int port : ports) {
      Properties p = new Properties();
      p.setProperty(NodeConfig.BIND, "127.0.0.1");
      p.setProperty(NodeConfig.PORT, String.valueOf(port));
      p.setProperty(NodeConfig.MEMBERS, members);
      p.setProperty(NodeConfig.SECRET, secret);
      p.setProperty(NodeConfig.PING_PERIOD, "200");
      p.setProperty(NodeConfig.PEER_WAIT_AT_START, "1000"); // started one by one: the first is alone
      p.setProperty(NodeConfig.PROBE_PERIOD, "3600000");
      p.setProperty(NodeConfig.DATA_DIR, dir.resolve("node-" + port).toString());
      nodes.add(Node.start(NodeConfig.from(p)));
    }
    List<String> all = ports.stream().map(p -> "127.0.0.1:" + p).sorted().toList();
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
        .until(() -> nodes.stream().allMatch(n -> n.cluster().orElseThrow().members().ownershipMembers().equals(all)));
  }

  private NamingService clientOf(Node... servers) throws Exception {
    Properties p = new Properties();
    p.setProperty("serverAddr", Arrays.stream(servers).map(n -> "127.0.0.1:" + n.config().port())
        .collect(Collectors.joining(",")));
    NamingService c = NamingFactory.createNamingService(p);
    clients.add(c);
    return c;
  }

  private static Instance instance(int port) {
    Instance i = new Instance();
    i.setIp("127.0.0.1");
    i.setPort(port);
    return i;
  }

  private record Event(long nanos, List<Integer> ports) {}

  @Test
  void aRegistrationOnNodeAReachesAListenerOnNodeBByUdpPush() throws Exception {
    startCluster(3);
    Node a = nodes.get(0);
    Node b = nodes.get(1);
    // A service that node B is not responsible for: every change reaches B through Distro.
    String name = IntStream.range(0, 1000).mapToObj(i -> "bench-" + i)
        .filter(n -> !b.cluster().orElseThrow().isResponsible(key(n))).findFirst().orElseThrow();
    ServiceKey service = key(name);
    System.out.printf("bench service %s, owner %s, subscriber's node %s%n", name,
        b.cluster().orElseThrow().responsibleMember(service), b.config().address());
    NamingService provider = clientOf(a);
    NamingService consumer = clientOf(b);
    warmUp(provider, consumer, b, service);

    List<Event> events = new CopyOnWriteArrayList<>();
    consumer.subscribe(name, e -> events.add(new Event(System.nanoTime(),
        ((NamingEvent) e).getInstances().stream().map(Instance::getPort).sorted().toList())));
    // The subscription is in place once node B holds it (the client's first list call made it).
    await().atMost(Duration.ofSeconds(10)).until(() -> b.subscriptions().subscribersOf(service).size() == 1);
    long ackedBefore = b.udp().channel().ackedPushes();

    long[] millis = new long[ROUNDS];
    long[] pushMillis = new long[ROUNDS];
    for (int round = 0; round < ROUNDS; round++) {
      int port = 20_000 + round;
      long[] inIndexOfB = {0};
      long start = System.nanoTime();
      provider.registerInstance(name, instance(port));
      await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(1)).until(() -> {
        if (inIndexOfB[0] == 0 && b.naming().listInstances(service, Set.of(), false, false).hosts().stream()
            .anyMatch(h -> h.key().port() == port)) {
          inIndexOfB[0] = System.nanoTime();
        }
        return events.stream().anyMatch(e -> e.ports().contains(port));
      });
      long arrived = events.stream().filter(e -> e.ports().contains(port)).mapToLong(Event::nanos).min().orElseThrow();
      millis[round] = (arrived - start) / 1_000_000;
      pushMillis[round] = inIndexOfB[0] == 0 ? 0 : Math.max(0, (arrived - inIndexOfB[0]) / 1_000_000);
    }
    long p99 = report("register on A -> listener on B", millis);
    report("(of which: seen in B's index -> listener, polled every 1 ms)", pushMillis);
    assertThat(b.udp().channel().ackedPushes() - ackedBefore).as("node B pushed and the client acked")
        .isGreaterThanOrEqualTo(1);
    // The client polls every 10 s: anything near that means pushes did not work.
    assertThat(p99).as("p99 of %s", Arrays.toString(millis)).isLessThan(3_000);

    provider.deregisterInstance(name, "127.0.0.1", 20_000);
    await().atMost(Duration.ofSeconds(5)).until(() -> !events.isEmpty()
        && !events.get(events.size() - 1).ports().contains(20_000)
        && events.get(events.size() - 1).ports().size() == ROUNDS - 1);
    await().atMost(Duration.ofSeconds(5)).until(() -> nodes.stream()
        .allMatch(n -> n.naming().listInstances(service, Set.of(), false, false).hosts().size() == ROUNDS - 1));
  }

  @Test
  void aNodeKilledUnderClientsKeepsTheirInstancesAndSubscriptionsGoing() throws Exception {
    startCluster(3);
    Node[] all = nodes.toArray(new Node[0]);
    NamingService provider = clientOf(all);
    NamingService consumer = clientOf(all);
    ServiceKey service = key("survivor");
    // Beats every 500 ms; without them the instance would go after 3 s.
    Instance first = instance(21_001);
    first.setMetadata(java.util.Map.of("preserved.heart.beat.interval", "500", "preserved.heart.beat.timeout", "1500",
        "preserved.ip.delete.timeout", "3000"));
    provider.registerInstance("survivor", first);
    List<List<Integer>> events = new CopyOnWriteArrayList<>();
    consumer.subscribe("survivor", e -> events.add(
        ((NamingEvent) e).getInstances().stream().map(Instance::getPort).sorted().toList()));
    await().atMost(Duration.ofSeconds(10)).until(() -> events.contains(List.of(21_001)));

    // Kill the member that holds the consumer's UDP subscription (the one it listed through).
    Node victim = nodes.stream().filter(n -> !n.subscriptions().subscribersOf(service).isEmpty()).findFirst().orElseThrow();
    victim.close();
    nodes.remove(victim);
    System.out.println("killed " + victim.config().address() + " under the 1.x clients");

    // Beats reach the survivors: the instance stays listed there (the delete timeout is 3 s).
    await().during(Duration.ofSeconds(8)).atMost(Duration.ofSeconds(12)).until(() -> nodes.stream()
        .allMatch(n -> n.naming().listInstances(service, Set.of(), false, false).hosts().size() == 1));
    // The consumer's next poll reaches a survivor and subscribes there: pushes resume.
    long start = System.nanoTime();
    provider.registerInstance("survivor", instance(21_002));
    await().atMost(Duration.ofSeconds(25)).until(() -> events.contains(List.of(21_001, 21_002)));
    System.out.println(String.format("NACOS1 after a node kill: new instance reached the listener in %d ms",
        (System.nanoTime() - start) / 1_000_000));
    assertThat(nodes.stream().mapToInt(n -> n.subscriptions().subscribersOf(service).size()).sum()).isPositive();
  }

  /** Prints p50/p99 (nearest rank) and returns p99. */
  private static long report(String what, long[] millis) {
    long[] sorted = millis.clone();
    Arrays.sort(sorted);
    long p50 = sorted[(int) Math.ceil(0.50 * sorted.length) - 1];
    long p99 = sorted[(int) Math.ceil(0.99 * sorted.length) - 1];
    System.out.println(String.format("NACOS1 UDP PUSH %s: rounds=%d p50=%d ms p99=%d ms min=%d ms max=%d ms all=%s",
        what, sorted.length, p50, p99, sorted[0], sorted[sorted.length - 1], Arrays.toString(millis)));
    return p99;
  }

  /**
   * One registration pushed to the consumer first, through the path the rounds take (a service of
   * the same responsible member, replicated to node B, pushed by B), so that round 0 does not time
   * cold code paths or a peer channel's first use.
   */
  private static void warmUp(NamingService provider, NamingService consumer, Node b, ServiceKey bench)
      throws Exception {
    ClusterServices cluster = b.cluster().orElseThrow();
    String owner = cluster.responsibleMember(bench);
    String name = IntStream.range(0, 1000).mapToObj(i -> "warm-up-" + i)
        .filter(n -> cluster.responsibleMember(key(n)).equals(owner)).findFirst().orElseThrow();
    List<List<Integer>> seen = new CopyOnWriteArrayList<>();
    consumer.subscribe(name, e -> seen.add(
        ((NamingEvent) e).getInstances().stream().map(Instance::getPort).toList()));
    await().atMost(Duration.ofSeconds(10)).until(() -> b.subscriptions().subscribersOf(key(name)).size() == 1);
    provider.registerInstance(name, instance(19_999));
    await().atMost(Duration.ofSeconds(15)).until(() -> seen.contains(List.of(19_999)));
  }

  private static ServiceKey key(String name) {
    return new ServiceKey("public", "DEFAULT_GROUP", name);
  }
}
