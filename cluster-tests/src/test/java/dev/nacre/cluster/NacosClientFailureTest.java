package dev.nacre.cluster;

import static dev.nacre.cluster.NacosClients.addresses;
import static dev.nacre.cluster.NacosClients.instance;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.alibaba.nacos.api.naming.NamingService;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nacos clients and nodes that go away: a client process killed with SIGKILL (its instances leave
 * every node), and a node stopped or crashed under its clients (they move to another node of their
 * list, register again, and their subscriptions keep firing).
 */
@Timeout(150)
class NacosClientFailureTest {
  @TempDir Path dir;

  @Test
  void aKilledClientProcessLeavesEveryNode() throws Exception {
    try (LocalCluster cluster = LocalCluster.start(dir, 3, Map.of())) {
      Process child = startClientProcess(cluster.address(1), "doomed", 6001);
      try {
        awaitOnEveryNode(cluster, "doomed", List.of("127.0.0.1:6001"));
        signal(child, "9");
        assertThat(child.waitFor(10, TimeUnit.SECONDS)).as("child " + child.pid() + " died").isTrue();
        long killedAt = System.nanoTime();
        awaitOnEveryNode(cluster, "doomed", List.of());
        System.out.printf("killed client's instance gone from every node after %d ms%n",
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt));
      } finally {
        child.destroyForcibly();
        child.waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void aFrozenClientProcessIsProbedAndRemoved() throws Exception {
    Map<String, String> quickDetection = Map.of(
        dev.nacre.node.config.NodeConfig.CLIENT_IDLE, "2000",
        // 2 s to answer: a child JVM on 2 busy shared cores can stall for a second.
        dev.nacre.node.config.NodeConfig.CLIENT_DETECTION_TIMEOUT, "2000");
    try (LocalCluster cluster = LocalCluster.start(dir, 3, quickDetection)) {
      Process child = startClientProcess(cluster.address(2), "frozen", 6002);
      try {
        awaitOnEveryNode(cluster, "frozen", List.of("127.0.0.1:6002"));
        // A live client answers the node's liveness probes and keeps its instance through several.
        await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(7)).pollInterval(Duration.ofMillis(100))
            .until(() -> cluster.hosts(2, "frozen"), List.of("127.0.0.1:6002")::equals);
        signal(child, "STOP");
        long frozenAt = System.nanoTime();
        // Its TCP connection stays open: only the idle check (2 s + 2 s probe) can tell.
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(20))
            .until(() -> cluster.hosts(2, "frozen").isEmpty());
        long goneMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - frozenAt);
        System.out.printf("frozen client's instance removed %d ms after SIGSTOP (idle 2000 + probe 2000)%n", goneMs);
        // The idle clock started at its last message (up to ~2 s before SIGSTOP), so no lower bound.
        assertThat(goneMs).as("within idle + probe + a scan, with slack for 2 shared cores").isLessThan(10_000);
        awaitOnEveryNode(cluster, "frozen", List.of());
      } finally {
        child.destroyForcibly();
        child.waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void aStoppedNodesClientsMoveAndKeepTheirInstancesAndSubscriptions() throws Exception {
    nodeGoesAwayUnderItsClients("stopped", LocalCluster::stopNode);
  }

  /**
   * As above, but the node dies without a word: first its clients and peers stop hearing from it
   * (requests and answers dropped, as behind a dead host), then it stops. No ConnectResetRequest
   * reaches the clients; they must notice on their own (health check) and move.
   */
  @Test
  void aCrashedNodesClientsMoveAndKeepTheirInstancesAndSubscriptions() throws Exception {
    nodeGoesAwayUnderItsClients("crashed", (cluster, victim) -> {
      cluster.isolateFromClients(victim);
      cluster.isolate(victim);
      cluster.stopNode(victim);
    });
  }

  private void nodeGoesAwayUnderItsClients(String how, java.util.function.ObjIntConsumer<LocalCluster> end)
      throws Exception {
    try (LocalCluster cluster = LocalCluster.start(dir, 3, Map.of()); NacosClients clients = new NacosClients()) {
      // Both clients know the whole cluster; the victim is whichever node holds the writer.
      NamingService writer = clients.connect(cluster.address(0), cluster.address(1), cluster.address(2));
      NamingService reader = clients.connect(cluster.address(0), cluster.address(1), cluster.address(2));
      NacosClientClusterTest.Recorder heard = new NacosClientClusterTest.Recorder();
      reader.subscribe("survivor", heard);
      writer.registerInstance("survivor", instance(5001, null, 1.0, Map.of()));
      await().atMost(Duration.ofSeconds(10)).until(heard::last, l -> l.equals(List.of("127.0.0.1:5001")));

      int victim = nodeHolding(cluster, "survivor");
      long stoppedAt = System.nanoTime();
      end.accept(cluster, victim);
      // The writer re-registers on another node; until the peers' grace ends they keep the copy.
      await().atMost(Duration.ofSeconds(20)).until(() -> {
        int holder = nodeHolding(cluster, "survivor");
        return holder >= 0 && holder != victim;
      });
      long movedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedAt);
      System.out.printf("writer's instance owned by another node %d ms after its node %s%n", movedMs, how);
      assertThat(movedMs).as("instances reappear within seconds").isLessThan(10_000);
      for (int node = 0; node < 3; node++) {
        if (node != victim) {
          int n = node;
          await().atMost(Duration.ofSeconds(10)).until(() -> cluster.hosts(n, "survivor"), l -> l.equals(List.of("127.0.0.1:5001")));
        }
      }

      int before = heard.lists.size();
      writer.registerInstance("survivor", instance(5002, null, 1.0, Map.of()));
      await().atMost(Duration.ofSeconds(15)).until(heard::last, l -> l.equals(List.of("127.0.0.1:5002")));
      assertThat(heard.lists.size()).isGreaterThan(before);
      assertThat(addresses(reader.getAllInstances("survivor", false))).containsExactly("127.0.0.1:5002");
    }
  }

  /** A client JVM (test classpath) that registers {@code 127.0.0.1:port} and waits; returns once it did. */
  Process startClientProcess(String serverAddr, String service, int port) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"),
        "-Xmx128m",
        "-Dnacos.logging.default.config.enabled=false",
        "-DJM.SNAPSHOT.PATH=" + System.getProperty("JM.SNAPSHOT.PATH", dir.resolve("client").toString()),
        "-DJM.LOG.PATH=" + System.getProperty("JM.LOG.PATH", dir.resolve("client-logs").toString()),
        "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
        ClientProcessMain.class.getName(), serverAddr, service, Integer.toString(port)));
    Process child = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.PIPE).start();
    CompletableFuture<Boolean> ready = new CompletableFuture<>();
    Thread drain = new Thread(() -> {
      try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        // Keeps reading after REGISTERED so that the child never blocks on a full pipe.
        while ((line = out.readLine()) != null) {
          if (line.contains("REGISTERED")) {
            ready.complete(true);
          }
        }
      } catch (java.io.IOException e) {
        // The child is gone.
      }
      ready.complete(false);
    }, "client-process-output");
    drain.setDaemon(true);
    drain.start();
    boolean registered;
    try {
      registered = ready.get(60, TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      registered = false;
    }
    if (!registered) {
      child.destroyForcibly();
      throw new AssertionError("client process " + child.pid() + " did not register within 60 s");
    }
    return child;
  }

  static void signal(Process p, String signal) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start();
    assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(kill.exitValue()).as("kill -" + signal + " " + p.pid()).isZero();
  }

  static void awaitOnEveryNode(LocalCluster cluster, String service, List<String> hosts) {
    for (int node = 0; node < cluster.size(); node++) {
      int n = node;
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
          .until(() -> cluster.hosts(n, service), hosts::equals);
    }
  }

  /** Index of the running node whose client connection owns an instance of the service, or -1. */
  static int nodeHolding(LocalCluster cluster, String service) {
    for (int i = 0; i < cluster.size(); i++) {
      try {
        var node = cluster.node(i);
        var key = new dev.nacre.naming.model.ServiceKey("public", "DEFAULT_GROUP", service);
        boolean owns = node.naming().allInstances(key).stream().anyMatch(inst -> inst.ephemeral())
            && node.clientConnections().registeredIds().stream().anyMatch(id -> ownsAny(node, id, key));
        if (owns) {
          return i;
        }
      } catch (IllegalStateException stopped) {
        // Stopped node: holds nothing.
      }
    }
    return -1;
  }

  private static boolean ownsAny(dev.nacre.node.Node node, String connectionId,
      dev.nacre.naming.model.ServiceKey key) {
    return node.naming().clientInstances(connectionId).stream()
        .anyMatch(k -> k.service().equals(key));
  }
}
