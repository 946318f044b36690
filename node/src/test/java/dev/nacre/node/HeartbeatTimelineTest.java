package dev.nacre.node;

import static dev.nacre.node.TestNode.NS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The heartbeat timeline over HTTP on a real node, shortened through the per-instance
 * {@code preserved.*} metadata and a fast scan: unhealthy after the timeout, revived by a beat,
 * removed after the delete timeout. (The full-length timeline runs on a fake clock in naming.)
 */
@Timeout(60)
class HeartbeatTimelineTest {
  static final long TIMEOUT_MS = 1500;
  static final long DELETE_MS = 3000;
  @TempDir Path dir;

  @Test
  void unhealthyThenRevivedThenRemoved() {
    try (TestNode node = TestNode.start(dir, Map.of("nacre.naming.heartbeat.scan-ms", "100"))) {
      String metadata = "{\"preserved.heart.beat.timeout\":\"" + TIMEOUT_MS + "\",\"preserved.ip.delete.timeout\":\"" + DELETE_MS
          + "\",\"preserved.heart.beat.interval\":\"500\"}";
      Map<String, String> id = Map.of("serviceName", "hb", "ip", "127.3.0.1", "port", "80");
      // A healthy neighbour keeps the service above its protection threshold (0): with every
      // instance unhealthy, Nacos (and Nacre) would return them all marked healthy.
      assertThat(node.http.post(NS + "/instance", Map.of("serviceName", "hb", "ip", "127.3.0.2", "port", "80", "ephemeral", "false")).status()).isEqualTo(200);
      long registered = System.nanoTime();
      Map<String, String> reg = new java.util.HashMap<>(id);
      reg.put("metadata", metadata);
      assertThat(node.http.post(NS + "/instance", reg).status()).isEqualTo(200);

      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
          .until(() -> !host(node).get("healthy").asBoolean());
      assertThat(Duration.ofNanos(System.nanoTime() - registered).toMillis()).as("not unhealthy before its timeout").isGreaterThanOrEqualTo(TIMEOUT_MS);

      JsonNode beat = TestNode.json(node.http.put(NS + "/instance/beat", id));
      assertThat(beat.get("code").asInt()).isEqualTo(10200);
      assertThat(beat.get("clientBeatInterval").asLong()).isEqualTo(500);
      long lastBeat = System.nanoTime();
      assertThat(host(node).get("healthy").asBoolean()).as("a beat revives").isTrue();

      await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50))
          .until(() -> node.list("hb").get("hosts").size() == 1);
      assertThat(Duration.ofNanos(System.nanoTime() - lastBeat).toMillis()).as("not removed before its delete timeout").isGreaterThanOrEqualTo(DELETE_MS);
      assertThat(node.list("hb").get("hosts").get(0).get("ip").asText()).isEqualTo("127.3.0.2");
      assertThat(TestNode.json(node.http.put(NS + "/instance/beat", id)).get("code").asInt()).isEqualTo(20404);
    }
  }

  private static JsonNode host(TestNode node) {
    for (JsonNode h : node.list("hb").get("hosts")) {
      if (h.get("ip").asText().equals("127.3.0.1")) {
        return h;
      }
    }
    throw new AssertionError("127.3.0.1 is not listed");
  }
}
