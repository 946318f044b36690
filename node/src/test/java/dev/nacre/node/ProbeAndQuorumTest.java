package dev.nacre.node;

import static dev.nacre.node.TestNode.NS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.nacre.node.testkit.FreePorts;
import dev.nacre.node.testkit.RawNacosClient;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Server-side probes of persistent instances, and CP writes without a quorum. */
@Timeout(90)
class ProbeAndQuorumTest {
  @TempDir Path dir;

  /** Health as stored (the detail view), not as the list shows it under the protection threshold. */
  private static boolean healthyOf(TestNode node, String service, int port) {
    var r = node.http.get(NS + "/instance", Map.of("serviceName", service, "ip", "127.0.0.1", "port", String.valueOf(port)));
    assertThat(r.status()).as("detail of %s port %d", service, port).isEqualTo(200);
    return TestNode.json(r).get("healthy").asBoolean();
  }

  private static Map<String, String> persistent(String service, int port, boolean healthy) {
    return Map.of("serviceName", service, "ip", "127.0.0.1", "port", String.valueOf(port),
        "ephemeral", "false", "healthy", String.valueOf(healthy));
  }

  @Test
  void tcpAndHttpProbesSetHealthAndNoneLeavesIt() throws IOException {
    try (TestNode node = TestNode.start(dir, Map.of("nacre.naming.probe.period-ms", "200"));
        ServerSocket open = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      int closedPort = FreePorts.mainPort();
      node.http.post(NS + "/instance", persistent("tcp", open.getLocalPort(), false));
      node.http.post(NS + "/instance", persistent("tcp", closedPort, true));
      await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() ->
          healthyOf(node, "tcp", open.getLocalPort()) && !healthyOf(node, "tcp", closedPort));

      HttpServer web = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      web.createContext("/", ex -> {
        ex.sendResponseHeaders(ex.getRequestURI().getPath().equals("/health") ? 200 : 503, -1);
        ex.close();
      });
      web.start();
      try {
        int webPort = web.getAddress().getPort();
        node.http.post(NS + "/instance", persistent("web", webPort, false));
        assertThat(node.http.put(NS + "/cluster", Map.of("serviceName", "web", "clusterName", "DEFAULT",
            "healthChecker", "{\"type\":\"HTTP\",\"path\":\"/health\"}")).status()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> healthyOf(node, "web", webPort));
        node.http.put(NS + "/cluster", Map.of("serviceName", "web", "clusterName", "DEFAULT",
            "healthChecker", "{\"type\":\"HTTP\",\"path\":\"/down\"}"));
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> !healthyOf(node, "web", webPort));
        JsonNode detail = TestNode.json(node.http.get(NS + "/service", Map.of("serviceName", "web")));
        assertThat(detail.get("clusters").get(0).get("healthChecker").get("type").asText()).isEqualTo("HTTP");
      } finally {
        web.stop(0);
      }

      node.http.post(NS + "/instance", persistent("none", closedPort, true));
      node.http.put(NS + "/cluster", Map.of("serviceName", "none", "healthChecker", "{\"type\":\"NONE\"}"));
      assertThat(node.http.put(NS + "/cluster", Map.of("serviceName", "none", "healthChecker", "{\"type\":\"PING\"}")).status()).isEqualTo(400);
      // The closed port turned unhealthy within a few probe periods above; here it must not.
      long probePeriods = 10;
      long deadline = System.nanoTime() + Duration.ofMillis(200 * probePeriods).toNanos();
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> {
        assertThat(healthyOf(node, "none", closedPort)).as("NONE leaves health as registered").isTrue();
        return System.nanoTime() > deadline;
      });
    }
  }

  @Test
  void withoutQuorumCpWritesFailFastWith503AndApWritesGoOn() {
    try (TestNode node = startWithoutQuorum(Map.of())) {
      long start = System.nanoTime();
      var r = node.http.post(NS + "/instance", persistent("cp", 9, true));
      long elapsedMs = Duration.ofNanos(System.nanoTime() - start).toMillis();
      assertThat(r.status()).isEqualTo(503);
      assertThat(r.body()).startsWith("caused: ").containsIgnoringCase("quorum");
      assertThat(elapsedMs).as("fails within the 3 s bound plus slack").isLessThan(4_500);

      var service = node.http.post(NS + "/service", Map.of("serviceName", "cp-svc"));
      assertThat(service.status()).isEqualTo(503);

      assertThat(node.http.post(NS + "/instance", Map.of("serviceName", "ap", "ip", "127.0.0.1", "port", "9")).status()).isEqualTo(200);
      assertThat(node.list("ap").get("hosts")).hasSize(1);
      assertThat(node.http.get(NS + "/instance/list", Map.of("serviceName", "ap", "consistency", "linearizable")).status()).isEqualTo(503);
      assertThat(node.list("cp").get("hosts")).isEmpty();
    }
  }

  /**
   * Issue 11 §3: CP writes that wait out their timeout (no quorum) on every worker do not hold up
   * reads and ephemeral writes, which run on workers of their own; and persistent registrations
   * and deregistrations, which answer through a future, hold no worker at all.
   */
  @Test
  void readsAndApWritesGoOnWhileCpWritesWaitOnEveryWorker() throws Exception {
    int workers = 4;
    try (TestNode node = startWithoutQuorum(Map.of("nacre.http.worker-threads", String.valueOf(workers)))) {
      ExecutorService writers = Executors.newFixedThreadPool(9 * workers);
      try {
        String cpWorker = "127.0.0.1:" + node.node().config().port() + "-http-cp-";
        List<Future<Integer>> instances = new ArrayList<>();
        for (int i = 0; i < 3 * workers; i++) {
          int port = 100 + i;
          instances.add(writers.submit(() -> node.http.post(NS + "/instance", persistent("cp-flood", port, true)).status()));
          instances.add(writers.submit(() -> node.http.delete(NS + "/instance", persistent("cp-flood", port + 100, true)).status()));
        }
        await().during(Duration.ofMillis(1000)).atMost(Duration.ofSeconds(2))
            .until(() -> threadsNamed(cpWorker) == 0 && instances.stream().noneMatch(Future::isDone));
        List<Future<Integer>> services = new ArrayList<>();
        for (int i = 0; i < 3 * workers; i++) {
          String name = "cp-flood-" + i;
          services.add(writers.submit(() -> node.http.post(NS + "/service", Map.of("serviceName", name)).status()));
        }
        // Every CP worker has taken a service creation (each waits out its 3 s) before the others arrive.
        await().atMost(Duration.ofSeconds(5)).until(() -> threadsNamed(cpWorker) == workers);
        long start = System.nanoTime();
        assertThat(node.http.post(NS + "/instance", Map.of("serviceName", "ap-during", "ip", "127.0.0.1", "port", "9")).status())
            .isEqualTo(200);
        assertThat(node.list("ap-during").get("hosts")).hasSize(1);
        long tookMs = Duration.ofNanos(System.nanoTime() - start).toMillis();
        assertThat(tookMs).as("an AP write and a read while CP writes wait").isLessThan(1_500);
        assertThat(services.stream().filter(f -> !f.isDone()).count()).as("CP writes still waiting").isPositive();
        for (var f : instances) {
          assertThat(f.get(30, TimeUnit.SECONDS)).isEqualTo(503);
        }
        for (var f : services) {
          assertThat(f.get(30, TimeUnit.SECONDS)).isEqualTo(503);
        }
      } finally {
        writers.shutdownNow();
      }
    }
  }

  /** A node whose members include a second one that never answers: it never has a quorum. */
  private TestNode startWithoutQuorum(Map<String, String> more) {
    int absentMember = FreePorts.mainPort();
    int self = FreePorts.mainPort();
    Map<String, String> settings = new HashMap<>(more);
    settings.put("nacre.port", String.valueOf(self));
    settings.put("nacre.members", "127.0.0.1:" + self + ",127.0.0.1:" + absentMember);
    settings.put("nacre.cluster.secret", "a-secret-for-this-test-only");
    return TestNode.start(dir, settings);
  }

  private static long threadsNamed(String prefix) {
    return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith(prefix)).count();
  }

  /**
   * Issue 11 §3 on the client gRPC port: a persistent registration that cannot commit holds no
   * thread while it waits, so three times as many as the former 32-thread pool all fail within
   * one CP timeout (a pool would answer them in waves), and an ephemeral registration and a query
   * on the same connection are answered meanwhile.
   */
  @Test
  void clientCpWritesWaitingForAQuorumHoldNoThread() throws Exception {
    int writes = 96;
    try (TestNode node = startWithoutQuorum(Map.of());
        RawNacosClient client = new RawNacosClient(node.node().config().clientGrpcPort())) {
      client.setUp();
      await().atMost(Duration.ofSeconds(5)).until(() -> client.call("HealthCheckRequest", "{}").resultCode() == 200);
      ExecutorService writers = Executors.newFixedThreadPool(writes);
      try {
        List<Future<RawNacosClient.Reply>> cp = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < writes; i++) {
          String instance = "{\"ip\":\"127.0.0.1\",\"port\":" + (100 + i) + ",\"ephemeral\":false}";
          cp.add(writers.submit(() -> client.call("PersistentInstanceRequest",
              ClientGrpcProtocolTest.instanceRequest("cp-grpc", "registerInstance", instance))));
        }
        String ephemeral = "{\"ip\":\"127.0.0.1\",\"port\":9,\"ephemeral\":true}";
        long apStart = System.nanoTime();
        assertThat(client.call("InstanceRequest", ClientGrpcProtocolTest.instanceRequest("ap-grpc", "registerInstance",
            ephemeral)).resultCode()).isEqualTo(200);
        assertThat(client.call("ServiceQueryRequest", "{\"namespace\":\"public\",\"serviceName\":\"ap-grpc\","
            + "\"groupName\":\"DEFAULT_GROUP\",\"cluster\":\"\",\"healthyOnly\":false}")
            .body().path("serviceInfo").path("hosts")).hasSize(1);
        assertThat(Duration.ofNanos(System.nanoTime() - apStart).toMillis())
            .as("an AP write and a query while CP writes wait").isLessThan(1_500);
        assertThat(cp.stream().filter(f -> !f.isDone()).count()).as("CP writes still waiting").isPositive();
        for (Future<RawNacosClient.Reply> f : cp) {
          RawNacosClient.Reply r = f.get(30, TimeUnit.SECONDS);
          assertThat(r.type()).isEqualTo("InstanceResponse");
          assertThat(r.errorCode()).isEqualTo(503);
          assertThat(r.body().get("message").asText()).contains("CP write could not commit");
        }
        long allMs = Duration.ofNanos(System.nanoTime() - start).toMillis();
        assertThat(allMs).as(writes + " waiting CP writes all answered within one 3 s timeout plus slack")
            .isLessThan(5_500);
      } finally {
        writers.shutdownNow();
      }
    }
  }
}
