package dev.nacre.node;

import static dev.nacre.node.V2InstanceApiTest.error;
import static dev.nacre.node.V2InstanceApiTest.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nacre.node.testkit.Http;
import dev.nacre.node.testkit.RawNacosClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The selector of a service list query, over the Nacos 2.x client protocol (gRPC) and both HTTP
 * lists, on a real node: label expressions on instance and service metadata, none, and refusals.
 */
@Timeout(60)
@ExtendWith(TestNodePerClass.class)
class ServiceListSelectorTest {
  static final String GROUP = "sel";
  static TestNode node;
  static RawNacosClient client;

  @BeforeAll
  static void start() throws Exception {
    register("zone-a", 81, "{\"zone\":\"a\"}");
    register("zone-a-too", 82, "{\"zone\":\"a\",\"dotted.key\":\"x\"}");
    register("zone-b", 83, "{\"zone\":\"b\"}");
    ok(node.http.post("/nacos/v2/ns/service", Map.of("serviceName", "gold", "groupName", GROUP,
        "metadata", "{\"tier\":\"gold\"}")));
    client = new RawNacosClient(node.node().config().clientGrpcPort());
    client.setUp();
    client.next("SetupAckRequest", Duration.ofSeconds(20));
  }

  @AfterAll
  static void stop() {
    if (client != null) {
      client.close();
    }
  }

  private static void register(String service, int port, String metadata) {
    ok(node.http.post("/nacos/v2/ns/instance", Map.of("serviceName", service, "groupName", GROUP,
        "ip", "127.0.9.1", "port", String.valueOf(port), "metadata", metadata)));
  }

  /** The ServiceListRequest the official client sends, with the selector as it serializes one. */
  private static RawNacosClient.Reply grpcList(int pageNo, int pageSize, String selectorJson) {
    String selector = selectorJson == null ? "" : ",\"selector\":" + RawNacosClient.MAPPER.valueToTree(selectorJson);
    return client.call("ServiceListRequest", "{\"namespace\":\"public\",\"groupName\":\"" + GROUP + "\",\"pageNo\":"
        + pageNo + ",\"pageSize\":" + pageSize + selector + "}");
  }

  private static String label(String expression) {
    return "{\"type\":\"label\",\"expression\":\"" + expression + "\"}";
  }

  private static List<String> names(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  @Test
  void grpcListsKeepTheServicesTheSelectorMatches() {
    RawNacosClient.Reply zoneA = grpcList(1, 10, label("INSTANCE.metadata.zone = 'a'"));
    assertThat(zoneA.resultCode()).as(zoneA.body().toString()).isEqualTo(200);
    assertThat(names(zoneA.body().get("serviceNames"))).containsExactly("zone-a", "zone-a-too");
    assertThat(zoneA.body().get("count").asInt()).isEqualTo(2);

    RawNacosClient.Reply secondPage = grpcList(2, 1, label("INSTANCE.metadata.zone='a'"));
    assertThat(names(secondPage.body().get("serviceNames"))).containsExactly("zone-a-too");
    assertThat(secondPage.body().get("count").asInt()).isEqualTo(2);

    assertThat(names(grpcList(1, 10, label("SERVICE.metadata.tier = 'gold'")).body().get("serviceNames")))
        .containsExactly("gold");
    assertThat(names(grpcList(1, 10, label("INSTANCE.metadata.dotted.key = 'x'")).body().get("serviceNames")))
        .containsExactly("zone-a-too");
    assertThat(names(grpcList(1, 10, label("INSTANCE.metadata.zone = 'c'")).body().get("serviceNames"))).isEmpty();

    assertThat(grpcList(1, 10, "{\"type\":\"none\"}").body().get("count").asInt()).isEqualTo(4);
    assertThat(grpcList(1, 10, label("")).body().get("count").asInt()).isEqualTo(4);
    assertThat(grpcList(1, 10, null).body().get("count").asInt()).isEqualTo(4);
  }

  @Test
  void grpcRefusesASelectorItCannotApply() {
    for (String bad : List.of("{not json", "[1]", "{\"type\":\"cmdb\"}", label("zone = 'a'"),
        label("INSTANCE.metadata.zone"), label("INSTANCE.metadata. = 'a'"), label("INSTANCE.metadata.zone = ''"))) {
      RawNacosClient.Reply r = grpcList(1, 10, bad);
      assertThat(r.errorCode()).as(bad + " -> " + r.body()).isEqualTo(400);
      assertThat(r.body().get("message").asText()).as(bad).contains("selector");
    }
  }

  @Test
  void httpListsApplyTheSameSelector() {
    Http.Response v1 = node.http.get(TestNode.NS + "/service/list", Map.of("groupName", GROUP,
        "selector", label("INSTANCE.metadata.zone = 'b'"), "pageNo", "1", "pageSize", "10"));
    assertThat(v1.status()).as(v1.body()).isEqualTo(200);
    assertThat(names(TestNode.json(v1).get("doms"))).containsExactly("zone-b");
    assertThat(node.http.get(TestNode.NS + "/service/list", Map.of("groupName", GROUP, "selector", "{\"type\":1}"))
        .status()).isEqualTo(400);

    JsonNode v2 = ok(node.http.get("/nacos/v2/ns/service/list", Map.of("groupName", GROUP,
        "selector", label("SERVICE.metadata.tier = 'gold'"))));
    assertThat(names(v2.get("services"))).containsExactly("gold");
    error(node.http.get("/nacos/v2/ns/service/list", Map.of("groupName", GROUP, "selector", label("oops"))),
        400, 21006, "selector error");
  }
}
