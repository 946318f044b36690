package dev.nacre.node;

import static dev.nacre.node.TestNode.NS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.node.testkit.Http;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

  @Test
  void aScrapeAfterAKnownWorkloadShowsItsNumbers() {
    try (TestNode node = TestNode.start(dir)) {
      for (int i = 1; i <= 3; i++) {
        assertThat(node.http.post(NS + "/instance", Map.of("serviceName", "m-eph", "ip", "127.0.8." + i, "port", "80"))
            .status()).isEqualTo(200);
      }
      assertThat(node.http.post(NS + "/instance", Map.of("serviceName", "m-cp", "ip", "127.0.8.9", "port", "80",
          "ephemeral", "false")).status()).isEqualTo(200);
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
      assertThat(sample(scrape, "nacre_raft_leader")).as("a standalone node leads").isEqualTo(1.0);
      assertThat(sample(scrape, "nacre_raft_applied_index")).as("the persistent registration was applied")
          .isGreaterThanOrEqualTo(1.0);
      assertThat(sample(scrape, "jvm_memory_used_bytes", "area=\"heap\"", "id=\"G1 Eden Space\"")).isPositive();

      Http.Response nacos = node.http.get("/nacos/actuator/prometheus", Map.of());
      assertThat(nacos.status()).isEqualTo(200);
      assertThat(nacos.body()).contains("nacre_instances{");
    }
  }
}
