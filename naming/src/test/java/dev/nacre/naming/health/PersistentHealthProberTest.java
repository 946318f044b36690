package dev.nacre.naming.health;

import static dev.nacre.naming.support.NamingFixture.SERVICE;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.nacre.naming.model.ClusterInfo;
import dev.nacre.naming.model.HealthCheckType;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceInfo;
import dev.nacre.naming.support.NamingFixture;
import dev.nacre.naming.support.NamingFixturePerTest;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

@Timeout(30)
@ExtendWith(NamingFixturePerTest.class)
class PersistentHealthProberTest {
  NamingFixture f;
  PersistentHealthProber prober;
  ServerSocket listening;
  int closedPort;
  HttpServer http;

  @BeforeEach
  void setUp() throws IOException {
    f.ops.createService(ServiceInfo.defaults(SERVICE));
    prober = new PersistentHealthProber(f.index, f.config, s -> true);
    listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    try (ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      closedPort = s.getLocalPort();
    }
    http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    http.createContext("/health", exchange -> {
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    http.createContext("/broken", exchange -> {
      exchange.sendResponseHeaders(503, -1);
      exchange.close();
    });
    http.start();
  }

  @AfterEach
  void tearDown() throws IOException {
    http.stop(0);
    listening.close();
    prober.close();
  }

  private InstanceKey persistent(int port, boolean healthy) {
    InstanceKey key = new InstanceKey(SERVICE, "DEFAULT", "127.0.0.1", port);
    f.ops.registerInstance(new Instance(key, 1, healthy, true, false, Map.of()));
    return key;
  }

  private boolean healthy(InstanceKey key) {
    return f.index.instance(key, false).orElseThrow().healthy();
  }

  private void probe() throws Exception {
    prober.probeOnce().get(20, TimeUnit.SECONDS);
  }

  private void cluster(HealthCheckType type, String path, int checkPort, boolean useInstancePort) {
    f.ops.updateCluster(new ClusterInfo(SERVICE, "DEFAULT", type, path, checkPort, useInstancePort, Map.of()));
  }

  @Test
  void tcpProbeFollowsWhetherThePortListens() throws Exception {
    InstanceKey up = persistent(listening.getLocalPort(), false);
    InstanceKey down = persistent(closedPort, true);
    probe();
    assertThat(healthy(up)).isTrue();
    assertThat(healthy(down)).isFalse();
    assertThat(f.index.instance(down, false)).as("probes never delete").isPresent();
  }

  @Test
  void httpProbeWantsA2xxFromTheClusterPath() throws Exception {
    cluster(HealthCheckType.HTTP, "/health", 80, true);
    InstanceKey key = persistent(http.getAddress().getPort(), false);
    probe();
    assertThat(healthy(key)).isTrue();

    cluster(HealthCheckType.HTTP, "/broken", 80, true);
    probe();
    assertThat(healthy(key)).isFalse();
  }

  @Test
  void checkPortIsUsedWhenTheClusterSaysSo() throws Exception {
    cluster(HealthCheckType.TCP, "/", listening.getLocalPort(), false);
    InstanceKey key = persistent(closedPort, false);
    probe();
    assertThat(healthy(key)).isTrue();
  }

  @Test
  void noneCheckerLeavesHealthAlone() throws Exception {
    cluster(HealthCheckType.NONE, "/", 80, true);
    InstanceKey key = persistent(closedPort, true);
    probe();
    assertThat(healthy(key)).isTrue();
  }

  @Test
  void onlyServicesThisNodeIsResponsibleForAreProbed() throws Exception {
    InstanceKey key = persistent(closedPort, true);
    try (PersistentHealthProber elsewhere = new PersistentHealthProber(f.index, f.config, s -> false)) {
      elsewhere.probeOnce().get(20, TimeUnit.SECONDS);
    }
    assertThat(healthy(key)).isTrue();
    probe();
    assertThat(healthy(key)).isFalse();
  }

  @Test
  void ephemeralInstancesAreNotProbed() throws Exception {
    InstanceKey key = new InstanceKey(SERVICE, "DEFAULT", "127.0.0.1", closedPort);
    f.ops.registerInstance(new Instance(key, 1, true, true, true, Map.of()));
    probe();
    assertThat(f.index.instance(key, true).orElseThrow().healthy()).isTrue();
  }

  @Test
  void instancesBeyondAFullProbeQueueAreProbedInTheNextRound() throws Exception {
    int capacity = 3;
    int perRound = f.config.probeThreads() + capacity; // running + queued; the rest is refused
    Set<Integer> probed = ConcurrentHashMap.newKeySet();
    Semaphore gate = new Semaphore(0); // probes hold their threads until the test lets them go
    HealthProbe held = (host, port, cluster) -> {
      gate.acquireUninterruptibly();
      probed.add(port);
      return true;
    };
    for (int i = 0; i < 2 * perRound; i++) {
      persistent(40_000 + i, true);
    }
    try (PersistentHealthProber small = new PersistentHealthProber(f.index, f.config, s -> true,
        ProbeResultSink.localOnly(f.index), held, held, capacity)) {
      // A round starts at most perRound probes (fewer when idle threads are slow to take from the
      // queue), so from the start of the list alone the second half would never be reached.
      int rounds = 0;
      while (probed.size() < 2 * perRound && rounds < 8) {
        CompletableFuture<Void> started = small.probeOnce();
        gate.release(4 * perRound);
        started.get(10, TimeUnit.SECONDS);
        gate.drainPermits();
        rounds++;
      }
      assertThat(probed).as("every instance probed within %d rounds", rounds).hasSize(2 * perRound);
    }
  }
}
