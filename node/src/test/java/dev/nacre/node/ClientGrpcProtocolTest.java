package dev.nacre.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.node.config.NodeConfig;
import dev.nacre.node.testkit.RawNacosClient;
import dev.nacre.node.testkit.RawNacosClient.Reply;
import dev.nacre.proto.nacos.Payload;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The Nacos 2.x client protocol on P+1000, spoken by hand: life cycle and every error case. */
@Timeout(60)
class ClientGrpcProtocolTest {
  @TempDir static Path dir;
  static TestNode node;
  static int grpcPort;

  @BeforeAll
  static void start() {
    node = TestNode.start(dir.resolve("n"), Map.of(
        NodeConfig.CLIENT_IDLE, "600", NodeConfig.CLIENT_DETECTION_TIMEOUT, "600"));
    grpcPort = node.node().config().clientGrpcPort();
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  static String instanceRequest(String service, String type, String instanceJson) {
    return "{\"headers\":{},\"namespace\":\"public\",\"serviceName\":\"" + service
        + "\",\"groupName\":\"DEFAULT_GROUP\",\"module\":\"naming\",\"type\":\"" + type
        + "\",\"instance\":" + instanceJson + "}";
  }

  static String instance(int port) {
    return "{\"ip\":\"127.0.0.1\",\"port\":" + port + ",\"weight\":2.0,\"healthy\":true,\"enabled\":true,"
        + "\"ephemeral\":true,\"metadata\":{\"k\":\"v\"},\"instanceHeartBeatInterval\":5000}";
  }

  int hostCount(String service) {
    return node.node().naming()
        .listInstances(new ServiceKey("public", "DEFAULT_GROUP", service), Set.of(), false, false)
        .hosts().size();
  }

  @Test
  void serverCheckNamesTheConnectionAndOffersAbilityNegotiation() {
    try (RawNacosClient c = new RawNacosClient(grpcPort)) {
      Reply r = c.call("ServerCheckRequest", "{\"headers\":{},\"module\":\"internal\"}");
      assertThat(r.type()).isEqualTo("ServerCheckResponse");
      assertThat(r.resultCode()).isEqualTo(200);
      assertThat(r.body().get("connectionId").asText()).matches("\\d+_127\\.0\\.0\\.1_\\d+");
      assertThat(r.body().get("supportAbilityNegotiation").asBoolean()).isTrue();
      assertThat(c.call("ServerCheckRequest", "{}").body().get("connectionId"))
          .as("one TCP connection, one id").isEqualTo(r.body().get("connectionId"));
    }
  }

  @Test
  void requestsBeforeSetupAreRefusedAsUnregistered() {
    try (RawNacosClient c = new RawNacosClient(grpcPort)) {
      Reply r = c.call("InstanceRequest", instanceRequest("unreg", "registerInstance", instance(1)));
      assertThat(r.type()).isEqualTo("ErrorResponse");
      assertThat(r.resultCode()).isEqualTo(500);
      assertThat(r.errorCode()).isEqualTo(301);
      assertThat(r.body().get("message").asText()).isEqualTo("Connection is unregistered.");
      assertThat(c.call("HealthCheckRequest", "{}").errorCode()).isEqualTo(301);
      assertThat(hostCount("unreg")).isZero();
    }
  }

  @Test
  void unknownTypesAndBadBodiesGetNacosErrors() {
    try (RawNacosClient c = new RawNacosClient(grpcPort)) {
      assertThat(c.call("NoSuchRequest", "{}").errorCode()).isEqualTo(302);
      assertThat(c.call("", "{}").errorCode()).isEqualTo(302);
      c.setUp();
      await().atMost(Duration.ofSeconds(5)).until(
          () -> c.call("HealthCheckRequest", "{}").resultCode() == 200);
      Reply notJson = c.call("InstanceRequest", "{not json");
      assertThat(notJson.type()).isEqualTo("ErrorResponse");
      assertThat(notJson.errorCode()).isEqualTo(502);
      assertThat(notJson.body().get("message").asText()).startsWith("errCode: 101, errMsg: Nacos deserialize failed.");
      assertThat(c.call("InstanceRequest", "[1,2]").errorCode()).isEqualTo(502);
      assertThat(c.call("InstanceRequest", instanceRequest("bad", "registerInstance", "{\"ip\":\"127.0.0.1\",\"port\":\"abc\"}"))
          .errorCode()).isEqualTo(502);

      Reply badPort = c.call("InstanceRequest", instanceRequest("bad", "registerInstance",
          "{\"ip\":\"127.0.0.1\",\"port\":70000}"));
      assertThat(badPort.type()).isEqualTo("InstanceResponse");
      assertThat(badPort.resultCode()).isEqualTo(500);
      assertThat(badPort.errorCode()).isEqualTo(400);
      assertThat(badPort.body().get("message").asText()).startsWith("Param check invalid:Param 'port' is illegal");

      String big = "x".repeat(1022); // + "key": 1025 characters
      Reply bigMetadata = c.call("InstanceRequest", instanceRequest("bad", "registerInstance",
          "{\"ip\":\"127.0.0.1\",\"port\":1,\"metadata\":{\"key\":\"" + big + "\"}}"));
      assertThat(bigMetadata.errorCode()).isEqualTo(400);
      assertThat(bigMetadata.body().get("message").asText()).isEqualTo(
          "Param check invalid:Param 'Metadata' is illegal, the param length should not exceed 1024.");
      Reply badType = c.call("InstanceRequest", instanceRequest("bad", "dance", instance(1)));
      assertThat(badType.errorCode()).isEqualTo(400);
      Reply noInstance = c.call("InstanceRequest", "{\"serviceName\":\"bad\",\"type\":\"registerInstance\"}");
      assertThat(noInstance.errorCode()).isEqualTo(400);
      Reply badService = c.call("ServiceQueryRequest", "{\"serviceName\":\"\"}");
      assertThat(badService.type()).isEqualTo("QueryServiceResponse");
      assertThat(badService.errorCode()).isEqualTo(400);
      assertThat(c.call("ServiceListRequest", "{\"pageNo\":1,\"pageSize\":0}").errorCode()).isEqualTo(400);
      // Dubbo's getServicesOfServer(0, Integer.MAX_VALUE, group): Nacos reads page 0 as the first.
      Reply dubboList = c.call("ServiceListRequest", "{\"pageNo\":0,\"pageSize\":2147483647}");
      assertThat(dubboList.errorCode()).isZero();
      assertThat(dubboList.body().get("serviceNames").isArray()).isTrue();
      assertThat(hostCount("bad")).isZero();
      assertThat(c.call("HealthCheckRequest", "{}").resultCode()).as("still serving").isEqualTo(200);
    }
  }

  @Test
  void aNullMetadataValueIsKeptEmptyNotAServerError() throws Exception {
    // Found by ApiFuzzTest: {"k":null} made the registration fail with 500 (NullPointerException).
    try (RawNacosClient c = new RawNacosClient(grpcPort)) {
      c.setUp();
      await().atMost(Duration.ofSeconds(5)).until(() -> c.call("HealthCheckRequest", "{}").resultCode() == 200);
      Reply registered = c.call("InstanceRequest", instanceRequest("null-meta", "registerInstance",
          "{\"ip\":\"127.0.0.1\",\"port\":8081,\"metadata\":{\"k\":null,\"j\":\"v\"}}"));
      assertThat(registered.resultCode()).as("%s", registered.body()).isEqualTo(200);
      Reply query = c.call("ServiceQueryRequest",
          "{\"namespace\":\"public\",\"serviceName\":\"null-meta\",\"groupName\":\"DEFAULT_GROUP\",\"healthyOnly\":false}");
      JsonNode metadata = query.body().at("/serviceInfo/hosts/0/metadata");
      assertThat(metadata.get("k").asText()).isEmpty();
      assertThat(metadata.get("j").asText()).isEqualTo("v");
    }
  }

  @Test
  void setupIsAcknowledgedThenRequestsWorkAndClosingRemovesTheInstances() throws Exception {
    try (RawNacosClient c = new RawNacosClient(grpcPort)) {
      c.call("ServerCheckRequest", "{}");
      c.setUp();
      Payload ack = c.next("SetupAckRequest", Duration.ofSeconds(5));
      assertThat(RawNacosClient.body(ack).at("/abilityTable/supportPersistentInstanceByGrpc").asBoolean()).isTrue();

      Reply registered = c.call("InstanceRequest", instanceRequest("life", "registerInstance", instance(8080)));
      assertThat(registered.type()).isEqualTo("InstanceResponse");
      assertThat(registered.resultCode()).isEqualTo(200);
      assertThat(registered.body().get("type").asText()).isEqualTo("registerInstance");

      Reply query = c.call("ServiceQueryRequest",
          "{\"namespace\":\"public\",\"serviceName\":\"life\",\"groupName\":\"DEFAULT_GROUP\",\"cluster\":\"\",\"healthyOnly\":false}");
      assertThat(query.type()).isEqualTo("QueryServiceResponse");
      JsonNode info = query.body().get("serviceInfo");
      assertThat(info.get("name").asText()).isEqualTo("life");
      assertThat(info.get("groupName").asText()).isEqualTo("DEFAULT_GROUP");
      JsonNode host = info.get("hosts").get(0);
      assertThat(host.get("instanceId").asText()).isEqualTo("127.0.0.1#8080#DEFAULT#DEFAULT_GROUP@@life");
      assertThat(host.get("weight").asDouble()).isEqualTo(2.0);
      assertThat(host.get("clusterName").asText()).isEqualTo("DEFAULT");
      assertThat(host.get("serviceName").asText()).isEqualTo("DEFAULT_GROUP@@life");
      assertThat(host.at("/metadata/k").asText()).isEqualTo("v");

      Reply list = c.call("ServiceListRequest", "{\"namespace\":\"public\",\"groupName\":\"DEFAULT_GROUP\",\"pageNo\":1,\"pageSize\":100}");
      assertThat(list.type()).isEqualTo("ServiceListResponse");
      assertThat(list.body().get("serviceNames").toString()).contains("\"life\"");
      assertThat(list.body().get("count").asInt()).isPositive();
    }
    await().atMost(Duration.ofSeconds(5)).until(() -> hostCount("life") == 0);
  }

  @Test
  void aSilentClientIsProbedAndDroppedAnAnsweringOneStays() throws Exception {
    try (RawNacosClient silent = new RawNacosClient(grpcPort);
        RawNacosClient alive = new RawNacosClient(grpcPort)) {
      for (RawNacosClient c : new RawNacosClient[] {silent, alive}) {
        c.setUp();
        c.next("SetupAckRequest", Duration.ofSeconds(5));
      }
      silent.answerServerRequests(false);
      assertThat(silent.call("InstanceRequest", instanceRequest("idle", "registerInstance", instance(1))).resultCode()).isEqualTo(200);
      assertThat(alive.call("InstanceRequest", instanceRequest("idle", "registerInstance", instance(2))).resultCode()).isEqualTo(200);
      alive.next("ClientDetectionRequest", Duration.ofSeconds(5));
      // Idle 600 ms + probe timeout 600 ms (+ a scan period): the silent one goes, the other stays.
      await().atMost(Duration.ofSeconds(5)).until(() -> hostCount("idle") == 1);
      assertThat(silent.call("HealthCheckRequest", "{}").errorCode())
          .as("its transport lives on, unregistered: the client will reconnect").isEqualTo(301);
      alive.next("ClientDetectionRequest", Duration.ofSeconds(5));
      assertThat(hostCount("idle")).isEqualTo(1);
    }
  }

  @Test
  void theNodeCanAskAClientToMove() throws Exception {
    try (RawNacosClient c = new RawNacosClient(grpcPort)) {
      String id = c.call("ServerCheckRequest", "{}").body().get("connectionId").asText();
      c.setUp();
      c.next("SetupAckRequest", Duration.ofSeconds(5));
      await().atMost(Duration.ofSeconds(5)).until(() -> node.node().clientConnections().registeredIds().contains(id));
      node.node().clientConnections().reset(id, Optional.of("127.0.0.1:8848")).get();
      JsonNode reset = RawNacosClient.body(c.next("ConnectResetRequest", Duration.ofSeconds(5)));
      assertThat(reset.get("serverIp").asText()).isEqualTo("127.0.0.1");
      assertThat(reset.get("serverPort").asText()).isEqualTo("8848");
    }
  }

  private static JsonNode operatorMetrics() {
    return TestNode.json(node.http.get(TestNode.NS + "/operator/metrics", Map.of()));
  }

  /** The value of the one sample of {@code name} in a Prometheus scrape. */
  private static double scrapedValue(String scrape, String name) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(
        "^" + java.util.regex.Pattern.quote(name) + "\\{[^}]*\\} (\\S+)$", java.util.regex.Pattern.MULTILINE).matcher(scrape);
    assertThat(m.find()).as("%s in:\n%s", name, scrape).isTrue();
    return Double.parseDouble(m.group(1));
  }

  /** Nacos' naming metrics count this node's clients, subscriptions and owned instances (no stubs). */
  @Test
  void operatorMetricsCountClientsSubscriptionsAndResponsibleInstances() throws Exception {
    JsonNode before = operatorMetrics();
    try (RawNacosClient subscriber = new RawNacosClient(grpcPort); RawNacosClient writer = new RawNacosClient(grpcPort)) {
      for (RawNacosClient c : new RawNacosClient[] {subscriber, writer}) {
        c.setUp();
        c.next("SetupAckRequest", Duration.ofSeconds(5));
      }
      subscriber.call("SubscribeServiceRequest",
          "{\"namespace\":\"public\",\"serviceName\":\"counted\",\"groupName\":\"DEFAULT_GROUP\",\"subscribe\":true,\"clusters\":\"\"}");
      writer.call("InstanceRequest", instanceRequest("counted", "registerInstance", instance(5151)));
      node.http.post(TestNode.NS + "/instance", Map.of("serviceName", "counted-cp", "ip", "127.0.0.1", "port", "5152",
          "ephemeral", "false"));
      JsonNode during = operatorMetrics();
      assertThat(during.get("clientCount").asInt() - before.get("clientCount").asInt()).isEqualTo(2);
      assertThat(during.get("subscribeCount").asInt() - before.get("subscribeCount").asInt()).isEqualTo(1);
      assertThat(during.get("responsibleInstanceCount").asLong() - before.get("responsibleInstanceCount").asLong())
          .as("one ephemeral instance owned here, one persistent one checked here").isEqualTo(2);
      // Prometheus shows the same numbers, from the same home.
      String scrape = node.http.get("/metrics", Map.of()).body();
      assertThat(scrapedValue(scrape, "nacre_clients")).isEqualTo(during.get("clientCount").asDouble());
      assertThat(scrapedValue(scrape, "nacre_subscriptions")).isEqualTo(during.get("subscribeCount").asDouble());
    }
    await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
      JsonNode after = operatorMetrics();
      assertThat(after.get("clientCount").asInt()).isEqualTo(before.get("clientCount").asInt());
      assertThat(after.get("subscribeCount").asInt()).isEqualTo(before.get("subscribeCount").asInt());
    });
    node.http.delete(TestNode.NS + "/instance", Map.of("serviceName", "counted-cp", "ip", "127.0.0.1", "port", "5152",
        "ephemeral", "false"));
  }

  /** Client requests are timed by type and Nacos error code in /metrics (issue 12). */
  @Test
  void clientRequestsAreMeteredByTypeAndErrorCode() throws Exception {
    String before = node.http.get("/metrics", Map.of()).body();
    try (RawNacosClient c = new RawNacosClient(grpcPort)) {
      c.setUp();
      c.next("SetupAckRequest", Duration.ofSeconds(5));
      c.call("InstanceRequest", instanceRequest("metered", "registerInstance", instance(5161)));
      c.call("InstanceRequest", instanceRequest("metered", "deregisterInstance", instance(5161)));
      c.call("NoSuchRequest", "{}");
    }
    String after = node.http.get("/metrics", Map.of()).body();
    assertThat(requestCount(after, "InstanceRequest", 0) - requestCount(before, "InstanceRequest", 0)).isEqualTo(2);
    assertThat(requestCount(after, "other", 302) - requestCount(before, "other", 302))
        .as("an unknown type, under one bounded label").isEqualTo(1);
  }

  private static double requestCount(String scrape, String type, int code) {
    return scrape.lines()
        .filter(l -> l.startsWith("nacre_client_requests_seconds_count{") && l.contains("type=\"" + type + "\"")
            && l.contains("code=\"" + code + "\""))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
  }

  @Test
  void subscribersGetTheFullListPushedOnTheirStream() throws Exception {
    try (RawNacosClient subscriber = new RawNacosClient(grpcPort); RawNacosClient writer = new RawNacosClient(grpcPort)) {
      for (RawNacosClient c : new RawNacosClient[] {subscriber, writer}) {
        c.setUp();
        c.next("SetupAckRequest", Duration.ofSeconds(5));
      }
      Reply subscribed = subscriber.call("SubscribeServiceRequest",
          "{\"namespace\":\"public\",\"serviceName\":\"pushed\",\"groupName\":\"DEFAULT_GROUP\",\"subscribe\":true,\"clusters\":\"b,a\"}");
      assertThat(subscribed.type()).isEqualTo("SubscribeServiceResponse");
      assertThat(subscribed.body().at("/serviceInfo/hosts").size()).isZero();
      assertThat(subscribed.body().at("/serviceInfo/clusters").asText()).isEqualTo("b,a");

      writer.call("InstanceRequest", instanceRequest("pushed", "registerInstance",
          "{\"ip\":\"127.0.0.1\",\"port\":4242,\"clusterName\":\"a\"}"));
      JsonNode push;
      do {
        push = RawNacosClient.body(subscriber.next("NotifySubscriberRequest", Duration.ofSeconds(5)));
      } while (push.at("/serviceInfo/hosts").size() == 0);
      assertThat(push.get("requestId").asText()).matches("\\d+");
      assertThat(push.at("/serviceInfo/name").asText()).isEqualTo("pushed");
      assertThat(push.at("/serviceInfo/clusters").asText()).as("as the client asked: its cache key").isEqualTo("b,a");
      assertThat(push.at("/serviceInfo/hosts/0/port").asInt()).isEqualTo(4242);
      assertThat(node.node().subscriptions().subscribersOf(new ServiceKey("public", "DEFAULT_GROUP", "pushed"))).hasSize(1);

      Reply unsubscribed = subscriber.call("SubscribeServiceRequest",
          "{\"serviceName\":\"pushed\",\"subscribe\":false}");
      assertThat(unsubscribed.resultCode()).isEqualTo(200);
      assertThat(node.node().subscriptions().subscribersOf(new ServiceKey("public", "DEFAULT_GROUP", "pushed"))).isEmpty();
    }
  }

  @Test
  void manyClientsRegisteringAndLeavingTogetherLeaveNothingBehind() throws Exception {
    int clients = 12;
    java.util.List<RawNacosClient> open = new java.util.ArrayList<>();
    try {
      for (int i = 0; i < clients; i++) {
        RawNacosClient c = new RawNacosClient(grpcPort);
        open.add(c);
        c.setUp();
      }
      java.util.List<java.util.concurrent.CompletableFuture<Integer>> calls = new java.util.ArrayList<>();
      for (int i = 0; i < clients; i++) {
        RawNacosClient c = open.get(i);
        int port = 5000 + i;
        calls.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> {
          await().atMost(Duration.ofSeconds(5)).until(() -> c.call("HealthCheckRequest", "{}").resultCode() == 200);
          return c.call("InstanceRequest", instanceRequest("crowd", "registerInstance", instance(port))).resultCode();
        }));
      }
      for (var call : calls) {
        assertThat(call.get(20, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(200);
      }
      assertThat(hostCount("crowd")).isEqualTo(clients);
    } finally {
      open.parallelStream().forEach(RawNacosClient::close);
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> hostCount("crowd") == 0);
  }

  @Test
  void aStoppingNodeAsksItsClientsToMove(@TempDir Path own) throws Exception {
    TestNode stopping = TestNode.start(own.resolve("s"));
    try (RawNacosClient c = new RawNacosClient(stopping.node().config().clientGrpcPort())) {
      c.setUp();
      c.next("SetupAckRequest", Duration.ofSeconds(5));
      java.util.concurrent.CompletableFuture<Void> closing =
          java.util.concurrent.CompletableFuture.runAsync(stopping::close);
      JsonNode reset = RawNacosClient.body(c.next("ConnectResetRequest", Duration.ofSeconds(5)));
      assertThat(reset.has("serverIp")).as("no target: any other server of the client's list").isFalse();
      closing.get(30, java.util.concurrent.TimeUnit.SECONDS);
    } finally {
      stopping.close();
    }
  }
}
