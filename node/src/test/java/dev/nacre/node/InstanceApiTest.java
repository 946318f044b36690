package dev.nacre.node;

import static dev.nacre.node.TestNode.NS;
import static dev.nacre.node.TestNode.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** The v1 instance API over real HTTP on one node with real Ratis and RocksDB. */
@Timeout(60)
@ExtendWith(TestNodePerClass.class)
class InstanceApiTest {
  static TestNode node;

  private static Map<String, String> inst(String service, String ip, int port, String... more) {
    Map<String, String> m = new java.util.HashMap<>(Map.of("serviceName", service, "ip", ip, "port", String.valueOf(port)));
    for (int i = 0; i < more.length; i += 2) {
      m.put(more[i], more[i + 1]);
    }
    return m;
  }

  private static List<String> ips(JsonNode list) {
    List<String> out = new ArrayList<>();
    list.get("hosts").forEach(h -> out.add(h.get("ip").asText() + ":" + h.get("port").asInt()));
    return out;
  }

  @Test
  void registerListsEveryNacosFieldWithDefaults() {
    var r = node.http.post(NS + "/instance", inst("fields", "127.0.0.1", 8080, "metadata", "{\"zone\":\"a\"}"));
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.body()).isEqualTo("ok");

    JsonNode list = node.list("fields");
    assertThat(list.get("name").asText()).isEqualTo("DEFAULT_GROUP@@fields");
    assertThat(list.get("groupName").asText()).isEqualTo("DEFAULT_GROUP");
    assertThat(list.get("cacheMillis").asLong()).isPositive();
    assertThat(list.has("lastRefTime")).isTrue();
    assertThat(list.has("checksum")).isTrue();
    assertThat(list.get("reachProtectionThreshold").asBoolean()).isFalse();
    assertThat(list.get("valid").asBoolean()).isTrue();
    JsonNode h = list.get("hosts").get(0);
    assertThat(h.get("instanceId").asText()).isEqualTo("127.0.0.1#8080#DEFAULT#DEFAULT_GROUP@@fields");
    assertThat(h.get("weight").asDouble()).isEqualTo(1.0);
    assertThat(h.get("healthy").asBoolean()).isTrue();
    assertThat(h.get("enabled").asBoolean()).isTrue();
    assertThat(h.get("ephemeral").asBoolean()).isTrue();
    assertThat(h.get("clusterName").asText()).isEqualTo("DEFAULT");
    assertThat(h.get("serviceName").asText()).isEqualTo("DEFAULT_GROUP@@fields");
    assertThat(h.get("metadata").get("zone").asText()).isEqualTo("a");
    assertThat(h.get("instanceHeartBeatInterval").asLong()).isEqualTo(5000);
    assertThat(h.get("instanceHeartBeatTimeOut").asLong()).isEqualTo(15000);
    assertThat(h.get("ipDeleteTimeout").asLong()).isEqualTo(30000);
  }

  @Test
  void groupedServiceNamesNamespacesAndFormBodies() {
    assertThat(node.http.postForm(NS + "/instance", inst("g1@@svc", "127.0.0.2", 1, "namespaceId", "never-created")).status()).isEqualTo(200);
    JsonNode list = node.list("svc", Map.of("groupName", "g1", "namespaceId", "never-created"));
    assertThat(ips(list)).containsExactly("127.0.0.2:1");
    assertThat(list.get("name").asText()).isEqualTo("g1@@svc");
    assertThat(ips(node.list("svc"))).isEmpty();
  }

  @Test
  void registrationIsIdempotentForBothKinds() {
    for (int i = 0; i < 2; i++) {
      assertThat(node.http.post(NS + "/instance", inst("idem", "127.0.0.3", 80)).status()).isEqualTo(200);
      assertThat(node.http.post(NS + "/instance", inst("idem", "127.0.0.4", 80, "ephemeral", "false")).status()).isEqualTo(200);
    }
    assertThat(ips(node.list("idem"))).containsExactlyInAnyOrder("127.0.0.3:80", "127.0.0.4:80");
  }

  @Test
  void sameAddressCannotBeEphemeralAndPersistent() {
    assertThat(node.http.post(NS + "/instance", inst("clash", "127.0.0.5", 80)).status()).isEqualTo(200);
    var r = node.http.post(NS + "/instance", inst("clash", "127.0.0.5", 80, "ephemeral", "false"));
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.body()).startsWith("caused: ").contains("ephemeral");
    assertThat(node.list("clash").get("hosts").get(0).get("ephemeral").asBoolean()).isTrue();
  }

  @Test
  void updatePatchDetailAndDeregister() {
    node.http.post(NS + "/instance", inst("upd", "127.0.0.6", 80, "ephemeral", "false", "metadata", "{\"v\":\"1\"}"));
    assertThat(node.http.put(NS + "/instance", inst("upd", "127.0.0.6", 80, "ephemeral", "false", "weight", "3.5", "metadata", "{\"v\":\"2\"}")).status()).isEqualTo(200);
    JsonNode detail = json(node.http.get(NS + "/instance", inst("upd", "127.0.0.6", 80)));
    assertThat(detail.get("weight").asDouble()).isEqualTo(3.5);
    assertThat(detail.get("metadata").get("v").asText()).isEqualTo("2");
    assertThat(detail.get("service").asText()).isEqualTo("DEFAULT_GROUP@@upd");
    assertThat(detail.get("instanceId").asText()).isEqualTo("127.0.0.6#80#DEFAULT#DEFAULT_GROUP@@upd");

    assertThat(node.http.patch(NS + "/instance", inst("upd", "127.0.0.6", 80, "ephemeral", "false", "weight", "7")).status()).isEqualTo(200);
    detail = json(node.http.get(NS + "/instance", inst("upd", "127.0.0.6", 80)));
    assertThat(detail.get("weight").asDouble()).isEqualTo(7.0);
    assertThat(detail.get("metadata").get("v").asText()).as("patch keeps fields it does not name").isEqualTo("2");

    assertThat(node.http.delete(NS + "/instance", inst("upd", "127.0.0.6", 80, "ephemeral", "false")).status()).isEqualTo(200);
    assertThat(node.http.get(NS + "/instance", inst("upd", "127.0.0.6", 80)).status()).isEqualTo(404);
    assertThat(node.http.put(NS + "/instance", inst("upd", "127.0.0.6", 80, "ephemeral", "false")).status()).isEqualTo(404);
  }

  @Test
  void disabledInstancesAreHiddenFromConsumers() {
    node.http.post(NS + "/instance", inst("drain", "127.0.0.7", 80));
    node.http.post(NS + "/instance", inst("drain", "127.0.0.8", 80));
    assertThat(node.http.patch(NS + "/instance", inst("drain", "127.0.0.7", 80, "enabled", "false")).status()).isEqualTo(200);
    assertThat(ips(node.list("drain"))).containsExactly("127.0.0.8:80");
  }

  @Test
  void healthyOnlyAndClustersFilter() {
    node.http.post(NS + "/instance", inst("filt", "127.0.1.1", 80, "clusterName", "c1"));
    node.http.post(NS + "/instance", inst("filt", "127.0.1.2", 80, "clusterName", "c2", "healthy", "false"));
    node.http.post(NS + "/instance", inst("filt", "127.0.1.3", 80, "clusterName", "c2"));
    assertThat(ips(node.list("filt"))).hasSize(3);
    assertThat(ips(node.list("filt", Map.of("clusters", "c2")))).containsExactlyInAnyOrder("127.0.1.2:80", "127.0.1.3:80");
    assertThat(ips(node.list("filt", Map.of("healthyOnly", "true")))).containsExactlyInAnyOrder("127.0.1.1:80", "127.0.1.3:80");
  }

  @Test
  void protectionThresholdReturnsEveryInstance() {
    assertThat(node.http.post(NS + "/service", Map.of("serviceName", "prot", "protectThreshold", "0.6")).status()).isEqualTo(200);
    node.http.post(NS + "/instance", inst("prot", "127.0.2.1", 80, "ephemeral", "false"));
    node.http.post(NS + "/instance", inst("prot", "127.0.2.2", 80, "ephemeral", "false", "healthy", "false"));
    JsonNode list = node.list("prot", Map.of("healthyOnly", "true"));
    assertThat(list.get("reachProtectionThreshold").asBoolean()).isTrue();
    assertThat(ips(list)).containsExactlyInAnyOrder("127.0.2.1:80", "127.0.2.2:80");

    node.http.put(NS + "/service", Map.of("serviceName", "prot", "protectThreshold", "0.4"));
    list = node.list("prot", Map.of("healthyOnly", "true"));
    assertThat(list.get("reachProtectionThreshold").asBoolean()).isFalse();
    assertThat(ips(list)).containsExactly("127.0.2.1:80");
  }

  @Test
  void beatAnswersAndRecreates() {
    var unknown = json(node.http.put(NS + "/instance/beat", inst("beat", "127.0.3.1", 80)));
    assertThat(unknown.get("code").asInt()).isEqualTo(20404);

    node.http.post(NS + "/instance", inst("beat", "127.0.3.1", 80));
    var known = json(node.http.put(NS + "/instance/beat", inst("beat", "127.0.3.1", 80)));
    assertThat(known.get("code").asInt()).isEqualTo(10200);
    assertThat(known.get("clientBeatInterval").asLong()).isEqualTo(5000);
    assertThat(known.get("lightBeatEnabled").asBoolean()).isTrue();

    String beat = "{\"serviceName\":\"DEFAULT_GROUP@@beat2\",\"ip\":\"127.0.3.2\",\"port\":81,\"cluster\":\"DEFAULT\",\"weight\":2.0,\"metadata\":{\"k\":\"v\"}}";
    var recreated = json(node.http.put(NS + "/instance/beat", Map.of("serviceName", "DEFAULT_GROUP@@beat2", "beat", beat)));
    assertThat(recreated.get("code").asInt()).isEqualTo(10200);
    JsonNode h = node.list("beat2").get("hosts").get(0);
    assertThat(h.get("ip").asText()).isEqualTo("127.0.3.2");
    assertThat(h.get("weight").asDouble()).isEqualTo(2.0);
    assertThat(h.get("metadata").get("k").asText()).isEqualTo("v");
  }

  @Test
  void linearizableListGoesThroughRaft() {
    node.http.post(NS + "/instance", inst("lin", "127.0.4.1", 80, "ephemeral", "false"));
    assertThat(ips(node.list("lin", Map.of("consistency", "linearizable")))).containsExactly("127.0.4.1:80");
    assertThat(node.http.get(NS + "/instance/list", Map.of("serviceName", "lin", "consistency", "strong")).status()).isEqualTo(400);
  }
}
