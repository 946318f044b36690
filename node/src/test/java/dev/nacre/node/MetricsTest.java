package dev.nacre.node;

import static dev.nacre.node.TestNode.NS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.PublishRequest;
import dev.nacre.config.api.RemoveRequest;
import dev.nacre.node.config.NodeConfig;
import dev.nacre.node.testkit.Http;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Issue 12 §1: Prometheus text at /metrics after a known workload, with the numbers it made. */
@Timeout(60)
class MetricsTest {
  @TempDir Path dir;

  /** The value of the one sample of {@code name} whose labels include every one of {@code labels}. */
  private static double sample(String scrape, String name, String... labels) {
    Pattern line = Pattern.compile("^" + Pattern.quote(name) + "\\{([^}]*)\\} (\\S+)$", Pattern.MULTILINE);
    Matcher m = line.matcher(scrape);
    Double found = null;
    while (m.find()) {
      String have = m.group(1);
      boolean all = true;
      for (String l : labels) {
        all &= have.contains(l);
      }
      if (all) {
        assertThat(found).as("one sample of %s with %s", name, String.join(",", labels)).isNull();
        found = Double.parseDouble(m.group(2));
      }
    }
    assertThat(found).as("a sample of %s with %s in:\n%s", name, String.join(",", labels), scrape).isNotNull();
    return found;
  }

  /** One acknowledged push, then one left unacknowledged: the push meters count each. */
  @Test
  void pushesAreCountedByResult() throws Exception {
    try (TestNode node = TestNode.start(dir, Map.of(NodeConfig.PUSH_ACK_TIMEOUT, "300", NodeConfig.PUSH_RETRY, "10000"));
        DatagramSocket socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      socket.setSoTimeout(5_000);
      assertThat(node.http.get(NS + "/instance/list", Map.of("serviceName", "m-push", "udpPort",
          String.valueOf(socket.getLocalPort()), "clientIP", "127.0.0.1")).status()).isEqualTo(200);
      DatagramPacket packet = new DatagramPacket(new byte[65_536], 65_536);
      socket.receive(packet);
      String push = new String(packet.getData(), 0, packet.getLength(), StandardCharsets.UTF_8);
      Matcher ref = Pattern.compile("\"lastRefTime\": *(\\d+)").matcher(push);
      assertThat(ref.find()).as(push).isTrue();
      byte[] ack = ("{\"type\": \"push-ack\", \"lastRefTime\":\"" + ref.group(1) + "\", \"data\":\"\"}")
          .getBytes(StandardCharsets.UTF_8);
      socket.send(new DatagramPacket(ack, ack.length, packet.getSocketAddress()));
      Awaitility.await().atMost(Duration.ofSeconds(5)).until(() ->
          sampleOrZero(node.http.get("/metrics", Map.of()).body(), "nacre_push_seconds_count", "result=\"acked\"") == 1.0);

      // The next push is not acknowledged: after the 300 ms timeout it counts as failed.
      node.http.post(NS + "/instance", Map.of("serviceName", "m-push", "ip", "127.0.8.20", "port", "80"));
      socket.receive(new DatagramPacket(new byte[65_536], 65_536));
      Awaitility.await().atMost(Duration.ofSeconds(5)).until(() ->
          sampleOrZero(node.http.get("/metrics", Map.of()).body(), "nacre_push_seconds_count", "result=\"failed\"") == 1.0);
      assertThat(sample(node.http.get("/metrics", Map.of()).body(), "nacre_push_seconds_count", "result=\"acked\""))
          .isEqualTo(1.0);
    }
  }

  /** Publishes (one new, one update, one refused compare-and-set) and a delete: each counted by result. */
  @Test
  void configurationWritesAreCountedByResultAndTheConfigurationsHeld() {
    try (TestNode node = TestNode.start(dir, Map.of())) {
      ConfigKey a = new ConfigKey("", "DEFAULT_GROUP", "a.properties");
      ConfigKey b = new ConfigKey("", "DEFAULT_GROUP", "b.properties");
      node.node().configs().publish(publish(a, "x=1", Optional.empty())).join();
      node.node().configs().publish(publish(b, "y=1", Optional.empty())).join();
      assertThat(node.node().configs().publish(publish(a, "x=2", Optional.of("not-the-md5"))))
          .failsWithin(Duration.ofSeconds(5));
      node.node().configs().remove(new RemoveRequest(b, false, Optional.empty(), "", "127.0.0.1")).join();

      String scrape = node.http.get("/metrics", Map.of()).body();
      assertThat(sample(scrape, "nacre_config_writes_seconds_count", "operation=\"publish\"", "result=\"ok\""))
          .isEqualTo(2.0);
      assertThat(sample(scrape, "nacre_config_writes_seconds_count", "operation=\"publish\"",
          "result=\"conflict\"")).isEqualTo(1.0);
      assertThat(sample(scrape, "nacre_config_writes_seconds_count", "operation=\"remove\"", "result=\"ok\""))
          .isEqualTo(1.0);
      assertThat(sample(scrape, "nacre_config_configurations")).isEqualTo(1.0);
      assertThat(sample(scrape, "nacre_config_listeners")).isEqualTo(0.0);
    }
  }

  private static PublishRequest publish(ConfigKey key, String content, Optional<String> casMd5) {
    return new PublishRequest(key, content, "properties", "", "", "", "", "", "127.0.0.1", casMd5,
        Optional.empty(), Optional.empty());
  }

  /** Registers an instance over the v1 API, which must answer 200. */
  private static void register(TestNode node, Map<String, String> instance) {
    assertThat(node.http.post(NS + "/instance", instance).status()).isEqualTo(200);
  }

  private static double sampleOrZero(String scrape, String name, String... labels) {
    try {
      return sample(scrape, name, labels);
    } catch (AssertionError e) {
      return 0;
    }
  }

  /** Issue 12 §1: instances and services per namespace, from the index at each scrape. */
  @Test
  void namespacesAreCountedApart() {
    try (TestNode node = TestNode.start(dir)) {
      for (int i = 1; i <= 2; i++) {
        register(node, Map.of("serviceName", "ns-a", "ip", "127.0.8." + i, "port", "80"));
      }
      register(node, Map.of("namespaceId", "team-b", "serviceName", "ns-b", "ip", "127.0.8.3", "port", "80"));
      register(node, Map.of("namespaceId", "team-b", "serviceName", "ns-b-cp",
          "ip", "127.0.8.4", "port", "80", "ephemeral", "false"));

      String scrape = node.http.get("/metrics", Map.of()).body();
      assertThat(sample(scrape, "nacre_namespace_services", "namespace=\"public\"")).isEqualTo(1.0);
      assertThat(sample(scrape, "nacre_namespace_services", "namespace=\"team-b\"")).isEqualTo(2.0);
      assertThat(sample(scrape, "nacre_namespace_instances", "namespace=\"public\"", "kind=\"ephemeral\""))
          .isEqualTo(2.0);
      assertThat(sample(scrape, "nacre_namespace_instances", "namespace=\"team-b\"", "kind=\"ephemeral\""))
          .isEqualTo(1.0);
      assertThat(sample(scrape, "nacre_namespace_instances", "namespace=\"team-b\"", "kind=\"persistent\""))
          .isEqualTo(1.0);

      assertThat(node.http.delete(NS + "/instance", Map.of("namespaceId", "team-b", "serviceName", "ns-b",
          "ip", "127.0.8.3", "port", "80")).status()).isEqualTo(200);
      assertThat(sample(node.http.get("/metrics", Map.of()).body(), "nacre_namespace_instances",
          "namespace=\"team-b\"", "kind=\"ephemeral\"")).as("read again at the next scrape").isEqualTo(0.0);
    }
  }

  @Test
  void aScrapeAfterAKnownWorkloadShowsItsNumbers() {
    try (TestNode node = TestNode.start(dir)) {
      for (int i = 1; i <= 3; i++) {
        register(node, Map.of("serviceName", "m-eph", "ip", "127.0.8." + i, "port", "80"));
      }
      register(node, Map.of("serviceName", "m-cp", "ip", "127.0.8.9", "port", "80",
          "ephemeral", "false"));
      for (int i = 0; i < 2; i++) {
        assertThat(node.http.get(NS + "/instance/list", Map.of("serviceName", "m-eph")).status()).isEqualTo(200);
      }
      assertThat(node.http.get(NS + "/instance/list", Map.of()).status()).isEqualTo(400);
      node.http.get("/no/such/path", Map.of());

      Http.Response r = node.http.get("/metrics", Map.of());
      assertThat(r.status()).isEqualTo(200);
      String scrape = r.body();
      assertThat(sample(scrape, "nacre_instances", "kind=\"ephemeral\"")).isEqualTo(3.0);
      assertThat(sample(scrape, "nacre_instances", "kind=\"persistent\"")).isEqualTo(1.0);
      assertThat(sample(scrape, "nacre_services")).isEqualTo(2.0);
      assertThat(sample(scrape, "nacre_instances_responsible")).isEqualTo(4.0);
      assertThat(sample(scrape, "nacre_http_server_requests_seconds_count", "method=\"GET\"",
          "route=\"/nacos/v1/ns/instance/list\"", "status=\"200\"")).isEqualTo(2.0);
      assertThat(sample(scrape, "nacre_http_server_requests_seconds_count", "method=\"GET\"",
          "route=\"/nacos/v1/ns/instance/list\"", "status=\"400\"")).isEqualTo(1.0);
      assertThat(sample(scrape, "nacre_http_server_requests_seconds_count", "method=\"POST\"",
          "route=\"/nacos/v1/ns/instance\"", "status=\"200\"")).isEqualTo(4.0);
      assertThat(sample(scrape, "nacre_http_server_requests_seconds_count", "route=\"unmatched\"", "status=\"404\""))
          .isEqualTo(1.0);
      // Latency histograms: every request is in the +Inf bucket, none in the first before it arrived.
      assertThat(sample(scrape, "nacre_http_server_requests_seconds_bucket", "route=\"/nacos/v1/ns/instance/list\"",
          "status=\"200\"", "le=\"+Inf\"")).isEqualTo(2.0);
      assertThat(sample(scrape, "nacre_http_server_requests_seconds_bucket", "route=\"/nacos/v1/ns/instance/list\"",
          "status=\"200\"", "le=\"0.001\"")).isBetween(0.0, 2.0);
      assertThat(sample(scrape, "nacre_raft_leader")).as("a standalone node leads").isEqualTo(1.0);
      assertThat(sample(scrape, "nacre_raft_role", "role=\"LEADER\"")).isEqualTo(1.0);
      assertThat(sample(scrape, "nacre_raft_role", "role=\"FOLLOWER\"")).isZero();
      assertThat(sample(scrape, "nacre_raft_followed_leader", "leader=\"127_0_0_1_")).as("it follows itself").isEqualTo(1.0);
      assertThat(sample(scrape, "nacre_raft_leader_changes_total")).as("it elected itself once").isEqualTo(1.0);
      assertThat(sample(scrape, "nacre_raft_applied_index")).as("the persistent registration was applied")
          .isGreaterThanOrEqualTo(1.0);
      assertThat(sample(scrape, "nacre_raft_apply_stalled_seconds")).as("the state machine keeps up").isZero();
      // Metaspace, not Eden: Eden is empty right after a young collection, which made this flaky.
      assertThat(sample(scrape, "jvm_memory_used_bytes", "area=\"nonheap\"", "id=\"Metaspace\"")).isPositive();
      assertThat(sample(scrape, "nacre_rocksdb_memtable_bytes")).as("the persistent write is in the memtable").isPositive();
      assertThat(sample(scrape, "nacre_rocksdb_sst_bytes")).isNotNegative();
      assertThat(sample(scrape, "nacre_rocksdb_pending_compaction_bytes")).isNotNegative();
      assertThat(sample(scrape, "nacre_raft_snapshot_index")).as("no snapshot after a few writes").isEqualTo(-1.0);
      assertThat(node.http.get("/nacos/v1/core/cluster/nodes", Map.of()).body()).contains("\"applyStalledMs\":0");

      Http.Response nacos = node.http.get("/nacos/actuator/prometheus", Map.of());
      assertThat(nacos.status()).isEqualTo(200);
      assertThat(nacos.body()).contains("nacre_instances{");
    }
  }
}
