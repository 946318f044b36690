package dev.nacre.cluster;

import static dev.nacre.cluster.NacosClients.addresses;
import static dev.nacre.cluster.NacosClients.instance;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.alibaba.nacos.api.naming.NamingService;
import java.io.BufferedReader;
import java.io.File;
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
 * every node), and a node stopped under its clients (they move to another node of their list,
 * register again, and their subscriptions keep firing).
 */
@Timeout(150)
class NacosClientFailureTest {
  @TempDir Path dir;

  @Test
  void aKilledClientProcessLeavesEveryNode() throws Exception {
    try (LocalCluster cluster = LocalCluster.start(dir, 3, Map.of())) {
      List<String> command = new ArrayList<>(List.of(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-cp", System.getProperty("java.class.path"),
          "-Dnacos.logging.default.config.enabled=false",
          "-DJM.SNAPSHOT.PATH=" + System.getProperty("JM.SNAPSHOT.PATH", dir.resolve("client").toString()),
          "-DJM.LOG.PATH=" + System.getProperty("JM.LOG.PATH", dir.resolve("client-logs").toString()),
          "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
          ClientProcessMain.class.getName(), cluster.address(1), "doomed", "6001"));
      Process child = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.PIPE).start();
      try {
        CompletableFuture<Boolean> registered = CompletableFuture.supplyAsync(() -> {
          try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
              if (line.contains("REGISTERED")) {
                return true;
              }
            }
            return false;
          } catch (java.io.IOException e) {
            return false;
          }
        });
        assertThat(registered.get(60, TimeUnit.SECONDS)).as("the child registered").isTrue();
        for (int node = 0; node < 3; node++) {
          int n = node;
          await().atMost(Duration.ofSeconds(10)).until(() -> cluster.hosts(n, "doomed"), l -> l.equals(List.of("127.0.0.1:6001")));
        }
        long pid = child.pid();
        Process kill = new ProcessBuilder("kill", "-9", Long.toString(pid)).start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(child.waitFor(10, TimeUnit.SECONDS)).as("child " + pid + " died").isTrue();
        long killedAt = System.nanoTime();
        for (int node = 0; node < 3; node++) {
          int n = node;
          await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
              .until(() -> cluster.hosts(n, "doomed").isEmpty());
        }
        System.out.printf("killed client's instance gone from every node after %d ms%n",
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt));
      } finally {
        child.destroyForcibly();
        child.waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void aStoppedNodesClientsMoveAndKeepTheirInstancesAndSubscriptions() throws Exception {
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
      cluster.stopNode(victim);
      // The writer re-registers on another node; until the peers' grace ends they keep the copy.
      await().atMost(Duration.ofSeconds(20)).until(() -> {
        int holder = nodeHolding(cluster, "survivor");
        return holder >= 0 && holder != victim;
      });
      long movedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedAt);
      System.out.printf("writer's instance owned by another node %d ms after its node stopped%n", movedMs);
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
