package dev.nacre.node;

import static dev.nacre.node.ClientGrpcProtocolTest.instance;
import static dev.nacre.node.ClientGrpcProtocolTest.instanceRequest;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The endpoints the console reads (the service catalog, v2's instance catalog, clients and
 * statuses, the members' Raft commit index) and v2's switch update, over real HTTP on one node,
 * with real Nacos 2.x protocol clients on its gRPC port.
 */
@Timeout(60)
@ExtendWith(TestNodePerClass.class)
class ConsoleApiTest {
  static final String V2 = "/nacos/v2/ns";
  static TestNode node;

  @Test
  void catalogListsEveryInstanceWithItsOwnerFilteredAndPaged() {
    String self = node.node().config().address();
    for (int port = 7001; port <= 7003; port++) {
      ok(node.http.post(V2 + "/instance", Map.of("serviceName", "cat", "groupName", "g", "ip", "127.0.5.1",
          "port", String.valueOf(port), "healthy", String.valueOf(port != 7003))));
    }
    ok(node.http.post(V2 + "/instance", Map.of("serviceName", "cat", "groupName", "g", "ip", "127.0.5.2",
        "port", "7004", "ephemeral", "false")));
    ok(node.http.put(V2 + "/instance", Map.of("serviceName", "cat", "groupName", "g", "ip", "127.0.5.1",
        "port", "7002", "enabled", "false")));

    JsonNode all = ok(node.http.get(V2 + "/catalog/instances",
        Map.of("serviceName", "g@@cat", "pageNo", "1", "pageSize", "10")));
    assertThat(all.get("count").asInt()).isEqualTo(4);
    assertThat(ports(all)).containsExactlyInAnyOrder(7001, 7002, 7003, 7004);
    for (JsonNode i : all.get("instances")) {
      if (i.get("ephemeral").asBoolean()) {
        assertThat(i.get("ownerNode").asText()).as(i.toString()).isEqualTo(self);
      } else {
        assertThat(i.has("ownerNode")).as("a persistent instance has no owner: " + i).isFalse();
      }
    }
    JsonNode offline = ok(node.http.get(V2 + "/catalog/instances", Map.of("serviceName", "cat", "groupName", "g",
        "pageNo", "1", "pageSize", "10", "enabledOnly", "false")));
    assertThat(ports(offline)).containsExactly(7002);
    JsonNode unhealthy = ok(node.http.get(V2 + "/catalog/instances", Map.of("serviceName", "g@@cat",
        "pageNo", "1", "pageSize", "10", "healthyOnly", "false")));
    assertThat(ports(unhealthy)).containsExactly(7003);
    JsonNode secondPage = ok(node.http.get(V2 + "/catalog/instances",
        Map.of("serviceName", "g@@cat", "pageNo", "2", "pageSize", "3")));
    assertThat(secondPage.get("count").asInt()).isEqualTo(4);
    assertThat(secondPage.get("instances").size()).isEqualTo(1);

    error(node.http.get(V2 + "/catalog/instances", Map.of("serviceName", "g@@cat", "pageNo", "1")), 400, 10000,
        "parameter missing");
    error(node.http.get(V2 + "/catalog/instances", Map.of("serviceName", "g@@cat", "pageNo", "0", "pageSize", "5")),
        400, 20002, "parameter validate error");
    error(node.http.get(V2 + "/catalog/instances", Map.of("serviceName", "g@@cat", "pageNo", "x", "pageSize", "5")),
        400, 20002, "parameter validate error");
    assertThat(error(node.http.get(V2 + "/catalog/instances", Map.of("serviceName", "ghost", "pageNo", "1",
        "pageSize", "5")), 400, 21008, "service not exist")).contains("ghost");
  }

  @Test
  void statusesListEveryInstanceWithItsHealthByNamespaceAndService() {
    assertThat(node.http.post("/nacos/v1/console/namespaces", Map.of("customNamespaceId", "stat",
        "namespaceName", "Stat")).status()).isEqualTo(200);
    node.http.post(TestNode.NS + "/instance", Map.of("namespaceId", "stat", "serviceName", "st", "groupName", "g",
        "ip", "127.0.6.1", "port", "81"));
    node.http.post(TestNode.NS + "/instance", Map.of("namespaceId", "stat", "serviceName", "st", "groupName", "g",
        "ip", "127.0.6.2", "port", "82", "healthy", "false"));

    Http.Response r = node.http.get(V2 + "/instance/statuses/stat%23%23g@@st", Map.of());
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    List<String> ips = new ArrayList<>();
    TestNode.json(r).get("ips").forEach(ip -> ips.add(ip.asText()));
    assertThat(ips).containsExactlyInAnyOrder("127.0.6.1:81_true", "127.0.6.2:82_false");

    error(node.http.get(V2 + "/instance/statuses/g@@st", Map.of()), 400, 21008, "service not exist");
    error(node.http.get(V2 + "/instance/statuses/%23%23g@@st", Map.of()), 400, 20002, "parameter validate error");
    error(node.http.get(V2 + "/instance/statuses/stat%23%23g@@", Map.of()), 400, 20002, "parameter validate error");
  }

  @Test
  void clientsTheirRegistrationsAndSubscriptionsAndAServicesPublishersAndSubscribers() throws Exception {
    try (RawNacosClient publisher = new RawNacosClient(node.node().config().clientGrpcPort());
        RawNacosClient subscriber = new RawNacosClient(node.node().config().clientGrpcPort())) {
      for (RawNacosClient c : new RawNacosClient[] {publisher, subscriber}) {
        c.setUp();
        c.next("SetupAckRequest", Duration.ofSeconds(20));
      }
      assertThat(publisher.call("InstanceRequest", instanceRequest("watched", "registerInstance", instance(6101)))
          .resultCode()).isEqualTo(200);
      assertThat(subscriber.call("SubscribeServiceRequest", "{\"namespace\":\"public\",\"serviceName\":\"watched\","
          + "\"groupName\":\"DEFAULT_GROUP\",\"subscribe\":true,\"clusters\":\"\"}").resultCode()).isEqualTo(200);

      List<String> ids = new ArrayList<>();
      ok(node.http.get(V2 + "/client/list", Map.of())).forEach(id -> ids.add(id.asText()));
      assertThat(ids).hasSize(2);

      JsonNode publishers = ok(node.http.get(V2 + "/client/service/publisher/list", Map.of("serviceName", "watched")));
      assertThat(publishers.size()).isEqualTo(1);
      String publisherId = publishers.get(0).get("clientId").asText();
      assertThat(publishers.get(0).get("ip").asText()).isEqualTo("127.0.0.1");
      assertThat(publishers.get(0).get("port").asInt()).isEqualTo(6101);
      assertThat(ok(node.http.get(V2 + "/client/service/publisher/list", Map.of("serviceName", "watched",
          "port", "6102"))).size()).as("another port").isZero();
      assertThat(ok(node.http.get(V2 + "/client/service/publisher/list", Map.of("serviceName", "watched",
          "ephemeral", "false"))).size()).as("persistent instances have no client").isZero();

      JsonNode subscribers = ok(node.http.get(V2 + "/client/service/subscriber/list", Map.of("serviceName", "watched")));
      assertThat(subscribers.size()).isEqualTo(1);
      String subscriberId = subscribers.get(0).get("clientId").asText();
      assertThat(ids).containsExactlyInAnyOrder(publisherId, subscriberId);

      JsonNode detail = ok(node.http.get(V2 + "/client", Map.of("clientId", subscriberId)));
      assertThat(detail.get("clientType").asText()).isEqualTo("connection");
      assertThat(detail.get("clientIp").asText()).isEqualTo("127.0.0.1");
      assertThat(detail.get("version").asText()).isEqualTo("Nacos-Java-Client:v2.5.1");
      assertThat(detail.get("clientPort").asText()).isEqualTo(String.valueOf(subscribers.get(0).get("port").asInt()));

      JsonNode published = ok(node.http.get(V2 + "/client/publish/list", Map.of("clientId", publisherId)));
      assertThat(published.size()).isEqualTo(1);
      assertThat(published.get(0).get("serviceName").asText()).isEqualTo("watched");
      assertThat(published.get(0).get("group").asText()).isEqualTo("DEFAULT_GROUP");
      assertThat(published.get(0).at("/registeredInstance/port").asInt()).isEqualTo(6101);
      assertThat(ok(node.http.get(V2 + "/client/publish/list", Map.of("clientId", subscriberId))).size()).isZero();

      JsonNode subscribed = ok(node.http.get(V2 + "/client/subscribe/list", Map.of("clientId", subscriberId)));
      assertThat(subscribed.size()).isEqualTo(1);
      assertThat(subscribed.get(0).get("namespace").asText()).isEqualTo("public");
      assertThat(subscribed.get(0).at("/subscriberInfo/addr").asText()).startsWith("127.0.0.1:");

      assertThat(error(node.http.get(V2 + "/client", Map.of("clientId", "no-such-client")), 404, 20004,
          "resource not found")).contains("no-such-client");
      error(node.http.get(V2 + "/client/publish/list", Map.of()), 400, 10000, "parameter missing");
      error(node.http.get(V2 + "/client/service/subscriber/list", Map.of()), 400, 10000, "parameter missing");
      error(node.http.get(V2 + "/client/service/subscriber/list", Map.of("serviceName", "watched", "port", "x")),
          400, 20002, "parameter validate error");
    }
  }

  @Test
  void switchesAcceptTheirCurrentValueAndRefuseChangesAndUnknownEntries() {
    JsonNode switches = ok(node.http.get(V2 + "/operator/switches", Map.of()));
    String current = switches.get("healthCheckEnabled").asText();
    assertThat(ok(node.http.put(V2 + "/operator/switches", Map.of("entry", "healthCheckEnabled", "value", current)))
        .asText()).isEqualTo("ok");
    assertThat(error(node.http.put(V2 + "/operator/switches", Map.of("entry", "healthCheckEnabled",
        "value", String.valueOf(!Boolean.parseBoolean(current)))), 400, 20002, "parameter validate error"))
        .contains("nacre.properties");
    assertThat(error(node.http.put(V2 + "/operator/switches", Map.of("entry", "noSuchSwitch", "value", "1")),
        400, 20002, "parameter validate error")).contains("noSuchSwitch");
    error(node.http.put(V2 + "/operator/switches", Map.of("entry", "healthCheckEnabled")), 400, 10000,
        "parameter missing");
  }

  @Test
  void serviceCatalogCountsInstancesFlagsTheProtectionThresholdAndListsGroups() {
    ok(node.http.post(V2 + "/service", Map.of("namespaceId", "public", "serviceName", "guarded", "groupName", "shop",
        "protectThreshold", "0.6")));
    ok(node.http.post(V2 + "/service", Map.of("serviceName", "empty", "groupName", "shop")));
    for (int port = 81; port <= 83; port++) {
      ok(node.http.post(V2 + "/instance", Map.of("serviceName", "guarded", "groupName", "shop", "ip", "127.0.7.1",
          "port", String.valueOf(port), "clusterName", port == 83 ? "east" : "west", "healthy", String.valueOf(port == 81))));
    }
    ok(node.http.post(V2 + "/instance", Map.of("serviceName", "calm", "groupName", "home", "ip", "127.0.7.2", "port", "80")));

    JsonNode page = TestNode.json(node.http.get(TestNode.NS + "/catalog/services",
        Map.of("groupNameParam", "sho", "pageNo", "1", "pageSize", "10")));
    assertThat(page.get("count").asInt()).isEqualTo(2);
    JsonNode guarded = page.get("serviceList").get(1);
    assertThat(guarded.get("name").asText()).isEqualTo("guarded");
    assertThat(guarded.get("groupName").asText()).isEqualTo("shop");
    assertThat(guarded.get("ipCount").asInt()).isEqualTo(3);
    assertThat(guarded.get("healthyInstanceCount").asInt()).isEqualTo(1);
    assertThat(guarded.get("clusterCount").asInt()).isEqualTo(2);
    assertThat(guarded.get("triggerFlag").asText()).as("1 of 3 healthy is under 0.6").isEqualTo("true");
    assertThat(guarded.get("protectThreshold").asDouble()).isEqualTo(0.6, org.assertj.core.data.Offset.offset(1e-6));
    assertThat(page.get("serviceList").get(0).get("name").asText()).isEqualTo("empty");
    assertThat(page.get("groups").toString()).contains("\"shop\"", "\"home\"");

    JsonNode calm = TestNode.json(node.http.get(TestNode.NS + "/catalog/services", Map.of("serviceNameParam", "cal")));
    assertThat(calm.get("count").asInt()).isEqualTo(1);
    assertThat(calm.get("serviceList").get(0).get("triggerFlag").asText()).isEqualTo("false");
    JsonNode withInstances = TestNode.json(node.http.get(TestNode.NS + "/catalog/services",
        Map.of("groupNameParam", "shop", "hasIpCount", "true")));
    assertThat(withInstances.get("count").asInt()).isEqualTo(1);

    Http.Response badGroup = node.http.get(TestNode.NS + "/catalog/services", Map.of("groupNameParam", "bad group!"));
    assertThat(badGroup.status()).as(badGroup.body()).isEqualTo(400);
    assertThat(badGroup.body()).contains("groupName");
    assertThat(node.http.get(TestNode.NS + "/catalog/services", Map.of("pageNo", "0")).status()).isEqualTo(400);
  }

  @Test
  void membersShowTheirRaftCommitIndex() {
    long before = commitIndex();
    ok(node.http.post(V2 + "/instance", Map.of("serviceName", "durable", "ip", "127.0.8.1", "port", "80",
        "ephemeral", "false")));
    assertThat(commitIndex()).as("a persistent write is one more Raft entry").isGreaterThan(before);
    JsonNode self = ok(node.http.get("/nacos/v2/core/cluster/node/self", Map.of()));
    assertThat(self.at("/extendInfo/raftMetaData/appliedIndex").asLong(-1))
        .as("answered once applied here").isGreaterThan(before);
  }

  private static long commitIndex() {
    JsonNode self = ok(node.http.get("/nacos/v2/core/cluster/node/self", Map.of()));
    return self.at("/extendInfo/raftMetaData/commitIndex").asLong(-1);
  }

  private static List<Integer> ports(JsonNode page) {
    List<Integer> out = new ArrayList<>();
    page.get("instances").forEach(i -> out.add(i.get("port").asInt()));
    return out;
  }
}
