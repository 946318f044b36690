package dev.nacre.node;

import static dev.nacre.node.TestNode.NS;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Persistent instances, services and namespaces survive a restart on the same folder; ephemeral ones do not. */
@Timeout(120)
class RestartRecoveryTest {
  @TempDir Path dir;

  @Test
  void cpStateSurvivesRestartAndEphemeralDoesNot() {
    try (TestNode node = TestNode.start(dir)) {
      node.http.post("/nacos/v1/console/namespaces", Map.of("customNamespaceId", "kept", "namespaceName", "Kept"));
      node.http.post(NS + "/service", Map.of("serviceName", "svc", "protectThreshold", "0.25", "metadata", "{\"a\":\"b\"}"));
      for (int i = 1; i <= 20; i++) {
        assertThat(node.http.post(NS + "/instance", Map.of("serviceName", "svc", "ip", "127.2.0." + i, "port", "80", "ephemeral", "false", "weight", String.valueOf(i))).status()).isEqualTo(200);
      }
      node.http.post(NS + "/instance", Map.of("serviceName", "svc", "ip", "127.2.1.1", "port", "80"));
      node.http.delete(NS + "/instance", Map.of("serviceName", "svc", "ip", "127.2.0.20", "port", "80", "ephemeral", "false"));
      assertThat(node.list("svc").get("hosts")).hasSize(20);

      node.restart();

      var hosts = node.list("svc").get("hosts");
      assertThat(hosts).hasSize(19);
      hosts.forEach(h -> {
        assertThat(h.get("ephemeral").asBoolean()).isFalse();
        assertThat(h.get("weight").asDouble()).isEqualTo(Double.parseDouble(h.get("ip").asText().substring(8)));
      });
      var service = TestNode.json(node.http.get(NS + "/service", Map.of("serviceName", "svc")));
      assertThat(service.get("protectThreshold").asDouble()).isEqualTo(0.25);
      assertThat(service.get("metadata").get("a").asText()).isEqualTo("b");
      assertThat(node.http.get("/nacos/v1/console/namespaces", Map.of()).body()).contains("\"kept\"");

      assertThat(node.http.post(NS + "/instance", Map.of("serviceName", "svc", "ip", "127.2.0.50", "port", "80", "ephemeral", "false")).status())
          .as("writes go on after restart").isEqualTo(200);
      assertThat(node.list("svc").get("hosts")).hasSize(20);
    }
  }
}
