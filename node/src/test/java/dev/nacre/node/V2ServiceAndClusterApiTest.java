package dev.nacre.node;

import static dev.nacre.node.V2InstanceApiTest.error;
import static dev.nacre.node.V2InstanceApiTest.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** Nacos' v2 service, operator and cluster-node APIs over real HTTP on one node. */
@Timeout(60)
@ExtendWith(TestNodePerClass.class)
class V2ServiceAndClusterApiTest {
  static final String SERVICE = "/nacos/v2/ns/service";
  static TestNode node;

  @Test
  void serviceLifecycle() {
    assertThat(ok(node.http.post(SERVICE, Map.of("serviceName", "life", "groupName", "g", "protectThreshold", "0.4",
        "metadata", "{\"owner\":\"a\"}"))).asText()).isEqualTo("ok");
    assertThat(error(node.http.post(SERVICE, Map.of("serviceName", "life", "groupName", "g")), 400, 21007,
        "service already exist")).contains("life");

    JsonNode detail = ok(node.http.get(SERVICE, Map.of("serviceName", "life", "groupName", "g")));
    assertThat(detail.get("namespace").asText()).isEqualTo("public");
    assertThat(detail.get("serviceName").asText()).isEqualTo("life");
    assertThat(detail.get("groupName").asText()).isEqualTo("g");
    assertThat(detail.get("protectThreshold").asDouble()).isCloseTo(0.4, Offset.offset(1e-6));
    assertThat(detail.get("metadata").get("owner").asText()).isEqualTo("a");
    assertThat(detail.get("selector").get("type").asText()).isEqualTo("none");
    assertThat(detail.get("clusterMap").size()).isZero();

    ok(node.http.post("/nacos/v2/ns/instance", Map.of("serviceName", "life", "groupName", "g", "ip", "127.0.3.1",
        "port", "80", "clusterName", "east")));
    detail = ok(node.http.get(SERVICE, Map.of("serviceName", "g@@life")));
    assertThat(detail.get("clusterMap").get("east").get("clusterName").asText()).isEqualTo("east");
    assertThat(detail.get("clusterMap").get("east").get("healthChecker").get("type").asText()).isEqualTo("TCP");
    assertThat(detail.get("ephemeral").asBoolean()).isTrue();

    ok(node.http.put(SERVICE, Map.of("serviceName", "life", "groupName", "g", "metadata", "{\"owner\":\"b\"}")));
    detail = ok(node.http.get(SERVICE, Map.of("serviceName", "life", "groupName", "g")));
    assertThat(detail.get("metadata").get("owner").asText()).isEqualTo("b");
    assertThat(detail.get("protectThreshold").asDouble()).as("v2 update sets every field").isZero();

    error(node.http.delete(SERVICE, Map.of("serviceName", "life", "groupName", "g")), 400, 21009, "service delete failure");
    ok(node.http.delete("/nacos/v2/ns/instance", Map.of("serviceName", "life", "groupName", "g", "ip", "127.0.3.1",
        "port", "80", "clusterName", "east")));
    ok(node.http.delete(SERVICE, Map.of("serviceName", "life", "groupName", "g")));
    error(node.http.get(SERVICE, Map.of("serviceName", "life", "groupName", "g")), 400, 21008, "service not exist");
  }

  @Test
  void serviceErrors() {
    error(node.http.post(SERVICE, Map.of()), 400, 10000, "parameter missing");
    error(node.http.get(SERVICE, Map.of()), 400, 10000, "parameter missing");
    error(node.http.delete(SERVICE, Map.of("serviceName", "ghost")), 400, 21008, "service not exist");
    error(node.http.put(SERVICE, Map.of("serviceName", "ghost")), 400, 21008, "service not exist");
    error(node.http.post(SERVICE, Map.of("serviceName", "s", "selector", "{\"expression\":1}")), 400, 21006, "selector error");
    error(node.http.post(SERVICE, Map.of("serviceName", "s", "metadata", "{oops")), 400, 21005, "service metadata error");
    error(node.http.post(SERVICE, Map.of("serviceName", "s", "protectThreshold", "2")), 400, 20002, "parameter validate error");
    error(node.http.get(SERVICE + "/list", Map.of("pageNo", "0")), 400, 20002, "parameter validate error");
  }

  @Test
  void serviceListPages() {
    for (int i = 0; i < 3; i++) {
      ok(node.http.post(SERVICE, Map.of("serviceName", "p" + i, "groupName", "pages")));
    }
    JsonNode page = ok(node.http.get(SERVICE + "/list", Map.of("groupName", "pages", "pageSize", "2")));
    assertThat(page.get("count").asInt()).isEqualTo(3);
    assertThat(page.get("services")).extracting(JsonNode::asText).containsExactly("p0", "p1");
    page = ok(node.http.get(SERVICE + "/list", Map.of("groupName", "pages", "pageSize", "2", "pageNo", "2")));
    assertThat(page.get("services")).extracting(JsonNode::asText).containsExactly("p2");
    assertThat(ok(node.http.get(SERVICE + "/list", Map.of("groupName", "empty-group"))).get("count").asInt()).isZero();
  }

  @Test
  void healthOfUnprobedPersistentInstancesIsSetByHand() {
    String health = "/nacos/v2/ns/health/instance";
    Map<String, String> inst = Map.of("serviceName", "hand", "ip", "127.0.3.9", "port", "80");
    ok(node.http.post("/nacos/v2/ns/instance", Map.of("serviceName", "hand", "ip", "127.0.3.9", "port", "80",
        "ephemeral", "false")));
    assertThat(error(node.http.put(health, withHealthy(inst, "false")), 400, 21011, "health check still running"))
        .contains("cluster: DEFAULT");
    assertThat(node.http.put("/nacos/v1/ns/cluster", Map.of("serviceName", "hand", "clusterName", "DEFAULT",
        "healthChecker", "{\"type\":\"NONE\"}")).status()).isEqualTo(200);
    assertThat(ok(node.http.put(health, withHealthy(inst, "false"))).asText()).isEqualTo("ok");
    // The detail view (a list would apply the protection threshold and show it healthy).
    assertThat(ok(node.http.get("/nacos/v2/ns/instance", inst)).get("healthy").asBoolean()).isFalse();
    ok(node.http.put("/nacos/v2/ns/health", withHealthy(inst, "true")));
    assertThat(ok(node.http.get("/nacos/v2/ns/instance", inst)).get("healthy").asBoolean()).isTrue();

    error(node.http.put(health, inst), 400, 10000, "parameter missing");
    error(node.http.put(health, Map.of("serviceName", "ghost", "ip", "127.0.3.9", "port", "80", "healthy", "true")),
        400, 21008, "service not exist");
    assertThat(ok(node.http.put(health, Map.of("serviceName", "hand", "ip", "127.0.3.8", "port", "80",
        "healthy", "true"))).asText()).as("an unknown instance is left alone, as in Nacos").isEqualTo("ok");
  }

  private static Map<String, String> withHealthy(Map<String, String> m, String healthy) {
    Map<String, String> out = new java.util.HashMap<>(m);
    out.put("healthy", healthy);
    return out;
  }

  @Test
  void operatorAndClusterNodes() {
    assertThat(ok(node.http.get("/nacos/v2/ns/operator/switches", Map.of())).get("name").asText())
        .contains("SWITCH_DOMAIN");
    JsonNode metrics = ok(node.http.get("/nacos/v2/ns/operator/metrics", Map.of()));
    assertThat(metrics.get("status").asText()).isEqualTo("UP");
    assertThat(metrics.has("serviceCount")).isFalse();
    assertThat(ok(node.http.get("/nacos/v2/ns/operator/metrics", Map.of("onlyStatus", "false"))).has("instanceCount"))
        .isTrue();

    String self = "127.0.0.1:" + node.node().config().port();
    JsonNode nodes = ok(node.http.get("/nacos/v2/core/cluster/node/list", Map.of()));
    assertThat(nodes).hasSize(1);
    assertThat(nodes.get(0).get("address").asText()).isEqualTo(self);
    assertThat(nodes.get(0).get("state").asText()).isEqualTo("UP");
    assertThat(ok(node.http.get("/nacos/v2/core/cluster/node/list", Map.of("state", "down")))).isEmpty();
    assertThat(ok(node.http.get("/nacos/v2/core/cluster/node/list", Map.of("address", "127.0.0.1:")))).hasSize(1);
    assertThat(ok(node.http.get("/nacos/v2/core/cluster/node/list", Map.of("address", "10.")))).isEmpty();
    error(node.http.get("/nacos/v2/core/cluster/node/list", Map.of("state", "sleepy")), 400, 23000, "illegal state");
    assertThat(ok(node.http.get("/nacos/v2/core/cluster/node/self", Map.of())).get("address").asText()).isEqualTo(self);
    assertThat(ok(node.http.get("/nacos/v2/core/cluster/node/self/health", Map.of())).asText()).isEqualTo("UP");
  }
}
