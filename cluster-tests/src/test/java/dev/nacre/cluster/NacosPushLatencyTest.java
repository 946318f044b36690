package dev.nacre.cluster;

import static dev.nacre.cluster.NacosClients.instance;
import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.nacos.api.naming.NamingService;
import com.alibaba.nacos.api.naming.listener.EventListener;
import com.alibaba.nacos.api.naming.listener.NamingEvent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Push latency across nodes, measured with the official client: a registration through a client of
 * node A, to the listener callback of a client of node B (Distro flush, merge window, push and
 * the client's processing included). Rounds rotate over the ordered pairs of distinct nodes; each
 * round uses its own service. Prints p50/p99; fails if a change never arrives or p50 is far off.
 */
@Timeout(240)
class NacosPushLatencyTest {
  static final int ROUNDS = 50;
  @TempDir Path dir;

  @Test
  void registrationOnOneNodeReachesListenersOnAnother() throws Exception {
    // -Dnacre.push-latency.distro-flush-ms=50 measures with a shorter Distro batch delay;
    // -Dnacre.push-latency.distro-leading-edge=false with Nacos' always-wait flush.
    String flush = System.getProperty("nacre.push-latency.distro-flush-ms");
    String leading = System.getProperty("nacre.push-latency.distro-leading-edge");
    Map<String, String> settings = new java.util.HashMap<>();
    if (flush != null) {
      settings.put(dev.nacre.node.config.NodeConfig.DISTRO_FLUSH, flush);
    }
    if (leading != null) {
      settings.put(dev.nacre.node.config.NodeConfig.DISTRO_LEADING_EDGE, leading);
    }
    try (LocalCluster cluster = LocalCluster.start(dir, 3, settings); NacosClients clients = new NacosClients()) {
      List<NamingService> perNode = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        perNode.add(clients.connect(cluster.address(i)));
      }
      List<Long> millis = new ArrayList<>();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
      for (int round = 0; round < ROUNDS && System.nanoTime() < deadline; round++) {
        int writer = round % 3;
        int reader = (writer + 1 + (round / 3) % 2) % 3;
        String service = "latency-" + round;
        int port = 30_000 + round;
        CompletableFuture<Long> heard = new CompletableFuture<>();
        EventListener listener = event -> {
          if (event instanceof NamingEvent e && e.getInstances().stream().anyMatch(i -> i.getPort() == port)) {
            heard.complete(System.nanoTime());
          }
        };
        perNode.get(reader).subscribe(service, listener);
        long t0 = System.nanoTime();
        perNode.get(writer).registerInstance(service, instance(port, null, 1.0, Map.of()));
        try {
          long at = heard.get(5, TimeUnit.SECONDS);
          millis.add(TimeUnit.NANOSECONDS.toMillis(at - t0));
        } catch (TimeoutException e) {
          throw new AssertionError("round " + round + ": node " + reader + "'s subscriber never heard of "
              + service + " registered on node " + writer + "\n" + cluster.describe());
        }
        perNode.get(reader).unsubscribe(service, listener);
        perNode.get(writer).deregisterInstance(service, "127.0.0.1", port);
      }
      assertThat(millis).hasSize(ROUNDS);
      List<Long> sorted = millis.stream().sorted().toList();
      long p50 = sorted.get(sorted.size() / 2);
      long p99 = sorted.get((int) Math.ceil(sorted.size() * 0.99) - 1);
      System.out.printf("push latency across nodes, %d rounds (Distro flush %s): p50 %d ms, p99 %d ms, max %d ms%n",
          sorted.size(), flush == null ? "default" : flush + " ms", p50, p99, sorted.get(sorted.size() - 1));
      assertThat(p50).as("median register-to-callback across nodes, ms").isLessThan(1000);
    }
  }
}
