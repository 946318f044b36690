package dev.nacre.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nacre.consensus.distro.DistroRecord;
import dev.nacre.naming.distro.DistroKeys;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** v2 ephemeral writes and beats take v1's path: answered by the member responsible for the service. */
@Timeout(120)
class V2ForwardingClusterTest {
  static final String V2 = "/nacos/v2/ns/instance";
  static final ServiceKey SERVICE = new ServiceKey("public", "DEFAULT_GROUP", "v2fwd");

  @TempDir Path dir;

  private static Map<String, String> inst(String ip) {
    return Map.of("serviceName", SERVICE.name(), "ip", ip, "port", "80");
  }

  private static List<String> v2Hosts(LocalCluster c, int node) {
    JsonNode body = LocalCluster.json(c.http(node).get(V2 + "/list", Map.of("serviceName", SERVICE.name())));
    assertThat(body.get("code").asInt()).isZero();
    List<String> out = new ArrayList<>();
    body.get("data").get("hosts").forEach(h -> out.add(h.get("ip").asText()));
    return out;
  }

  private static String owner(LocalCluster c, int node, String ip) throws Exception {
    String key = DistroKeys.instanceKey(new InstanceKey(SERVICE, "DEFAULT", ip, 80));
    DistroRecord r = c.node(node).cluster().orElseThrow().replicator().liveRecords().get(5, TimeUnit.SECONDS).get(key);
    return r == null ? "" : r.owner();
  }

  @Test
  void writesOnAnyNodeAreOwnedByTheResponsibleMember() throws Exception {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of())) {
      for (int i = 0; i < 3; i++) {
        var r = c.http(i).post(V2, inst("127.0.6." + (i + 1)));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(LocalCluster.json(r).get("data").asText()).isEqualTo("ok");
      }
      List<String> all = List.of("127.0.6.1", "127.0.6.2", "127.0.6.3");
      for (int i = 0; i < 3; i++) {
        int n = i;
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50))
            .untilAsserted(() -> assertThat(v2Hosts(c, n)).as("node %d\n%s", n, c.describe()).isEqualTo(all));
      }
      String responsible = c.node(0).cluster().orElseThrow().responsibleMember(SERVICE);
      for (int i = 0; i < 3; i++) {
        for (String ip : all) {
          assertThat(owner(c, i, ip)).as("owner of %s seen by node %d", ip, i).isEqualTo(responsible);
        }
      }
      int notResponsible = (c.indexOf(responsible) + 1) % 3;
      JsonNode beat = LocalCluster.json(c.http(notResponsible).put(V2 + "/beat",
          Map.of("serviceName", "DEFAULT_GROUP@@" + SERVICE.name(), "ip", "127.0.6.1", "port", "80")));
      assertThat(beat.get("code").asInt()).as("a v2 beat on any node reaches the owner").isEqualTo(10200);

      assertThat(c.http(notResponsible).delete(V2, inst("127.0.6.1")).status()).isEqualTo(200);
      for (int i = 0; i < 3; i++) {
        int n = i;
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50))
            .untilAsserted(() -> assertThat(v2Hosts(c, n)).containsExactly("127.0.6.2", "127.0.6.3"));
      }
    }
  }
}
