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

/**
 * Ephemeral writes and beats of v1 and v2 are applied by the member responsible for the service,
 * whichever member a client asks, and a client hears the same answer from any member.
 */
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

  @Test
  void everyMemberAnswersAsTheResponsibleOneDoes() throws Exception {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of())) {
      int responsible = c.indexOf(c.node(0).cluster().orElseThrow().responsibleMember(SERVICE));
      int other = (responsible + 1) % 3;
      List<String> here = answersOf(c, responsible);
      assertThat(here.get(0)).as("a refusal, not a success").contains("20404");
      assertThat(here.get(4)).contains("clusterName");
      assertThat(answersOf(c, other)).as("the same questions asked of a member not responsible").isEqualTo(here);

      String v1 = "/nacos/v1/ns/instance";
      assertThat(c.http(other).post(v1, inst("127.0.7.1")).status()).isEqualTo(200);
      assertThat(c.http(other).patch(v1, Map.of("serviceName", SERVICE.name(), "ip", "127.0.7.1", "port", "80",
          "weight", "3", "metadata", "{\"zone\":\"a\"}")).status()).isEqualTo(200);
      await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
        JsonNode detail = LocalCluster.json(c.http(responsible).get(v1, inst("127.0.7.1")));
        assertThat(detail.get("weight").asDouble()).isEqualTo(3.0);
        assertThat(detail.get("metadata").get("zone").asText()).isEqualTo("a");
      });
    }
  }

  /**
   * Asked of {@code node}: a v1 beat, patch and update of an unknown instance, a v2 beat of one,
   * a v2 registration in a cluster whose name the registry refuses.
   */
  private static List<String> answersOf(LocalCluster c, int node) {
    String v1 = "/nacos/v1/ns/instance";
    Map<String, String> unknown = inst("127.0.7.9");
    Map<String, String> badCluster = new java.util.HashMap<>(inst("127.0.7.8"));
    badCluster.put("clusterName", "no spaces allowed");
    return List.of(
        c.http(node).put(v1 + "/beat", unknown).toString(),
        c.http(node).patch(v1, Map.of("serviceName", SERVICE.name(), "ip", "127.0.7.9", "port", "80",
            "weight", "3")).toString(),
        c.http(node).put(v1, unknown).toString(),
        c.http(node).put(V2 + "/beat", unknown).toString(),
        c.http(node).post(V2, badCluster).toString());
  }
}
