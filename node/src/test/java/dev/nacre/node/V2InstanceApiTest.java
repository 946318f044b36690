package dev.nacre.node;

import static dev.nacre.node.TestNode.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nacre.node.testkit.Http;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** Nacos' v2 instance API over real HTTP on one node: wrapper, codes and statuses. */
@Timeout(60)
@ExtendWith(TestNodePerClass.class)
class V2InstanceApiTest {
  static final String V2 = "/nacos/v2/ns/instance";
  static TestNode node;

  static Map<String, String> inst(String service, String ip, int port, String... more) {
    Map<String, String> m = new HashMap<>(Map.of("serviceName", service, "ip", ip, "port", String.valueOf(port)));
    for (int i = 0; i < more.length; i += 2) {
      m.put(more[i], more[i + 1]);
    }
    return m;
  }

  /** Asserts the v2 success wrapper and returns its data. */
  static JsonNode ok(Http.Response r) {
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    JsonNode body = json(r);
    assertThat(body.get("code").asInt()).isZero();
    assertThat(body.get("message").asText()).isEqualTo("success");
    return body.get("data");
  }

  /** Asserts a v2 error answer and returns its detail message. */
  static String error(Http.Response r, int status, int code, String message) {
    assertThat(r.status()).as(r.body()).isEqualTo(status);
    JsonNode body = json(r);
    assertThat(body.get("code").asInt()).as(r.body()).isEqualTo(code);
    assertThat(body.get("message").asText()).isEqualTo(message);
    return body.get("data").asText();
  }

  static List<String> hosts(JsonNode data) {
    List<String> out = new ArrayList<>();
    data.get("hosts").forEach(h -> out.add(h.get("ip").asText() + ":" + h.get("port").asInt()));
    return out;
  }

  JsonNode list(String service, String... more) {
    Map<String, String> p = new HashMap<>(Map.of("serviceName", service));
    for (int i = 0; i < more.length; i += 2) {
      p.put(more[i], more[i + 1]);
    }
    return ok(node.http.get(V2 + "/list", p));
  }

  @Test
  void registerListDetailDeregister() {
    assertThat(ok(node.http.post(V2, inst("life", "127.0.0.1", 8080, "groupName", "g1", "weight", "2.5",
        "metadata", "{\"zone\":\"a\"}"))).asText()).isEqualTo("ok");

    JsonNode list = list("life", "groupName", "g1");
    assertThat(list.get("name").asText()).isEqualTo("g1@@life");
    assertThat(list.get("groupName").asText()).isEqualTo("g1");
    assertThat(list.get("cacheMillis").asLong()).isPositive();
    JsonNode h = list.get("hosts").get(0);
    assertThat(h.get("instanceId").asText()).isEqualTo("127.0.0.1#8080#DEFAULT#g1@@life");
    assertThat(h.get("weight").asDouble()).isEqualTo(2.5);
    assertThat(h.get("ephemeral").asBoolean()).isTrue();
    assertThat(h.get("metadata").get("zone").asText()).isEqualTo("a");

    JsonNode detail = ok(node.http.get(V2, inst("life", "127.0.0.1", 8080, "groupName", "g1")));
    assertThat(detail.get("serviceName").asText()).isEqualTo("g1@@life");
    assertThat(detail.get("clusterName").asText()).isEqualTo("DEFAULT");
    assertThat(detail.get("weight").asDouble()).isEqualTo(2.5);
    assertThat(detail.get("healthy").asBoolean()).isTrue();
    assertThat(detail.get("instanceId").asText()).isEqualTo("127.0.0.1#8080#DEFAULT#g1@@life");
    assertThat(detail.get("metadata").get("zone").asText()).isEqualTo("a");

    assertThat(ok(node.http.delete(V2, inst("life", "127.0.0.1", 8080, "groupName", "g1"))).asText()).isEqualTo("ok");
    assertThat(error(node.http.get(V2, inst("life", "127.0.0.1", 8080, "groupName", "g1")), 404, 20004,
        "resource not found")).contains("127.0.0.1");
    assertThat(hosts(list("life", "groupName", "g1"))).isEmpty();
    assertThat(ok(node.http.delete(V2, inst("life", "127.0.0.1", 8080))).asText())
        .as("deregistering an absent instance succeeds").isEqualTo("ok");
  }

  @Test
  void missingParametersAreCode10000() {
    Map<String, String> noService = inst("x", "127.0.0.1", 1);
    noService.remove("serviceName");
    assertThat(error(node.http.post(V2, noService), 400, 10000, "parameter missing"))
        .isEqualTo("Required parameter 'serviceName' type String is not present");
    Map<String, String> noIp = inst("x", "127.0.0.1", 1);
    noIp.remove("ip");
    assertThat(error(node.http.post(V2, noIp), 400, 10000, "parameter missing")).contains("'ip'");
    Map<String, String> noPort = inst("x", "127.0.0.1", 1);
    noPort.remove("port");
    assertThat(error(node.http.put(V2, noPort), 400, 10000, "parameter missing")).contains("'port' type Integer");
    assertThat(error(node.http.get(V2 + "/list", Map.of()), 400, 10000, "parameter missing")).contains("serviceName");
    assertThat(error(node.http.get(V2, noIp), 400, 10000, "parameter missing")).contains("'ip'");
    assertThat(error(node.http.delete(V2, noPort), 400, 10000, "parameter missing")).contains("'port'");
    assertThat(error(node.http.put(V2 + "/beat", Map.of("ip", "127.0.0.1", "port", "1")), 400, 10000,
        "parameter missing")).contains("serviceName");
  }

  @Test
  void invalidParametersGetTheirCodes() {
    error(node.http.post(V2, inst("bad", "127.0.0.1", 1, "weight", "-1")), 400, 21001, "weight error");
    assertThat(error(node.http.post(V2, inst("bad", "127.0.0.1", 1, "weight", "10001")), 400, 21001, "weight error"))
        .contains("The weights range from 0.0 to 10000.0");
    error(node.http.post(V2, inst("bad", "127.0.0.1", 1, "metadata", "{\"a\":")), 400, 21002, "instance metadata error");
    error(node.http.post(V2, inst("bad", "127.0.0.1", 1, "metadata", "not json")), 400, 21002, "instance metadata error");
    error(node.http.post(V2, inst("bad", "127.0.0.1", 1, "port", "abc")), 400, 20002, "parameter validate error");
    error(node.http.post(V2, inst("bad", "127.0.0.1", 70000)), 400, 20002, "parameter validate error");
    error(node.http.post(V2, inst("bad name", "127.0.0.1", 1)), 400, 20002, "parameter validate error");
    error(node.http.post(V2, inst("bad", "127.0.0.1", 1, "groupName", "g/1")), 400, 20002, "parameter validate error");
    error(node.http.get(V2 + "/list", Map.of("serviceName", "bad", "consistency", "strong")), 400, 20002,
        "parameter validate error");
    assertThat(hosts(list("bad"))).as("nothing was registered").isEmpty();
  }

  @Test
  void updateIsTheOperatorsEditAndPatchAnswersBareOk() {
    ok(node.http.post(V2, inst("upd", "127.0.0.2", 80, "metadata", "{\"zone\":\"a\"}")));
    ok(node.http.post(V2, inst("upd", "127.0.0.3", 80)));
    assertThat(ok(node.http.put(V2, inst("upd", "127.0.0.2", 80, "weight", "5", "enabled", "false"))).asText()).isEqualTo("ok");
    assertThat(hosts(list("upd"))).as("disabled instances are hidden").containsExactly("127.0.0.3:80");
    JsonNode detail = ok(node.http.get(V2, inst("upd", "127.0.0.2", 80)));
    assertThat(detail.get("weight").asDouble()).isEqualTo(5.0);
    assertThat(detail.get("metadata").get("zone").asText()).as("metadata the update does not name stays").isEqualTo("a");

    ok(node.http.post(V2, inst("upd", "127.0.0.2", 80, "metadata", "{\"zone\":\"a\"}")));
    assertThat(ok(node.http.get(V2, inst("upd", "127.0.0.2", 80))).get("weight").asDouble())
        .as("the client registering again keeps the operator's edit").isEqualTo(5.0);

    var patch = node.http.patch(V2, inst("upd", "127.0.0.2", 80, "weight", "7", "metadata", "{\"zone\":\"b\"}"));
    assertThat(patch.status()).isEqualTo(200);
    assertThat(patch.body()).isEqualTo("ok");
    detail = ok(node.http.get(V2, inst("upd", "127.0.0.2", 80)));
    assertThat(detail.get("weight").asDouble()).isEqualTo(7.0);
    assertThat(detail.get("metadata").get("zone").asText()).isEqualTo("b");
    error(node.http.patch(V2, inst("upd", "127.0.0.9", 80, "weight", "1")), 404, 20004, "resource not found");

    error(node.http.put(V2, inst("upd", "127.0.0.9", 80)), 404, 20004, "resource not found");
    assertThat(error(node.http.put(V2, inst("no-such-service", "127.0.0.9", 80)), 400, 21004, "instance error"))
        .contains("service not found");
  }

  @Test
  void persistentInstancesAreReplacedWhole() {
    ok(node.http.post(V2, inst("cp", "127.0.0.4", 80, "ephemeral", "false", "metadata", "{\"v\":\"1\"}")));
    ok(node.http.put(V2, inst("cp", "127.0.0.4", 80, "ephemeral", "false", "weight", "3")));
    JsonNode h = list("cp").get("hosts").get(0);
    assertThat(h.get("ephemeral").asBoolean()).isFalse();
    assertThat(h.get("weight").asDouble()).isEqualTo(3.0);
    assertThat(h.get("metadata").size()).isZero();
    error(node.http.post(V2, inst("cp", "127.0.0.4", 80)), 400, 20005, "resource conflict");
    ok(node.http.delete(V2, inst("cp", "127.0.0.4", 80, "ephemeral", "false")));
    assertThat(hosts(list("cp"))).isEmpty();
  }

  @Test
  void beatAnswersUnwrappedAsNacos() {
    ok(node.http.post(V2, inst("beat", "127.0.0.5", 80)));
    var r = node.http.put(V2 + "/beat", Map.of("serviceName", "DEFAULT_GROUP@@beat", "ip", "127.0.0.5", "port", "80"));
    assertThat(r.status()).isEqualTo(200);
    JsonNode body = json(r);
    assertThat(body.get("code").asInt()).isEqualTo(10200);
    assertThat(body.get("clientBeatInterval").asLong()).isEqualTo(5000);
    assertThat(body.get("lightBeatEnabled").asBoolean()).isTrue();
    assertThat(json(node.http.put(V2 + "/beat", Map.of("serviceName", "beat", "ip", "127.0.0.6", "port", "80")))
        .get("code").asInt()).isEqualTo(20404);
    String beat = "{\"serviceName\":\"DEFAULT_GROUP@@beat\",\"ip\":\"127.0.0.6\",\"port\":81,\"weight\":2,\"metadata\":{}}";
    assertThat(json(node.http.put(V2 + "/beat", Map.of("serviceName", "DEFAULT_GROUP@@beat", "beat", beat)))
        .get("code").asInt()).as("a full beat re-creates the instance").isEqualTo(10200);
    assertThat(hosts(list("beat"))).containsExactlyInAnyOrder("127.0.0.5:80", "127.0.0.6:81");
    error(node.http.put(V2 + "/beat", Map.of("serviceName", "beat", "beat", "{oops")), 400, 20002, "parameter validate error");
  }

  @Test
  void listFiltersByClusterNameAndHealth() {
    ok(node.http.post(V2, inst("filt", "127.0.1.1", 80, "clusterName", "c1")));
    ok(node.http.post(V2, inst("filt", "127.0.1.2", 80, "clusterName", "c2", "healthy", "false")));
    ok(node.http.post(V2, inst("filt", "127.0.1.3", 80, "clusterName", "c3")));
    assertThat(hosts(list("filt", "clusterName", "c2,c3"))).containsExactlyInAnyOrder("127.0.1.2:80", "127.0.1.3:80");
    assertThat(hosts(list("filt", "healthyOnly", "true"))).containsExactlyInAnyOrder("127.0.1.1:80", "127.0.1.3:80");
    assertThat(list("filt", "clusterName", "c1").get("clusters").asText()).isEqualTo("c1");
    assertThat(hosts(list("never-registered"))).isEmpty();
  }

  @Test
  void metadataBatchAddsAndRemovesKeys() {
    ok(node.http.post(V2, inst("batch", "127.0.2.1", 80, "metadata", "{\"keep\":\"1\"}")));
    ok(node.http.post(V2, inst("batch", "127.0.2.2", 80, "clusterName", "c1")));
    ok(node.http.post(V2, inst("batch", "127.0.2.3", 80)));
    String two = "[{\"ip\":\"127.0.2.1\",\"port\":80},{\"ip\":\"127.0.2.2\",\"port\":80,\"clusterName\":\"c1\"},"
        + "{\"ip\":\"127.0.2.9\",\"port\":80}]";
    JsonNode data = ok(node.http.put(V2 + "/metadata/batch", Map.of("serviceName", "batch", "instances", two,
        "metadata", "{\"tag\":\"blue\",\"v\":\"2\"}")));
    assertThat(data.get("updated")).extracting(JsonNode::asText)
        .containsExactly("127.0.2.1:80:unknown:DEFAULT:ephemeral", "127.0.2.2:80:unknown:c1:ephemeral");
    JsonNode first = ok(node.http.get(V2, inst("batch", "127.0.2.1", 80))).get("metadata");
    assertThat(first.get("tag").asText()).isEqualTo("blue");
    assertThat(first.get("keep").asText()).isEqualTo("1");
    assertThat(ok(node.http.get(V2, inst("batch", "127.0.2.3", 80))).get("metadata").has("tag")).isFalse();

    data = ok(node.http.delete(V2 + "/metadata/batch", Map.of("serviceName", "batch", "metadata", "{\"tag\":\"\"}")));
    assertThat(data.get("updated")).as("no list: every ephemeral instance").hasSize(3);
    first = ok(node.http.get(V2, inst("batch", "127.0.2.1", 80))).get("metadata");
    assertThat(first.has("tag")).isFalse();
    assertThat(first.get("v").asText()).isEqualTo("2");

    error(node.http.put(V2 + "/metadata/batch", Map.of("serviceName", "batch")), 400, 10000, "parameter missing");
    error(node.http.put(V2 + "/metadata/batch", Map.of("serviceName", "batch", "metadata", "{\"a\":\"b\"}",
        "instances", "{not a list")), 400, 20002, "parameter validate error");
    error(node.http.put(V2 + "/metadata/batch", Map.of("serviceName", "batch", "metadata", "{\"a\":")),
        400, 21002, "instance metadata error");
  }
}
