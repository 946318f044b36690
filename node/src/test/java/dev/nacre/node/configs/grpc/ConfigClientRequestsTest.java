package dev.nacre.node.configs.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nacre.config.api.ConfigException;
import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.PublishRequest;
import dev.nacre.node.client.ClientGrpcServer;
import dev.nacre.node.client.ClientRequestHandlers;
import dev.nacre.node.client.ClientRequestObserver;
import dev.nacre.node.client.RequestAccess;
import dev.nacre.node.config.ClientSettings;
import dev.nacre.node.configs.grpc.ConfigPushObserver.Outcome;
import dev.nacre.node.testkit.RawNacosClient.Reply;
import dev.nacre.node.testkit.RawNacosClient;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The configuration handlers on a real client port, against a recording stand-in of the config
 * module, driven by hand-built Nacos 2.x messages.
 */
@Timeout(30)
class ConfigClientRequestsTest {
  private static final Duration WAIT = Duration.ofSeconds(5);
  private final RecordingConfigs configs = new RecordingConfigs();
  private final ConfigPushCounts counts = new ConfigPushCounts();
  private final List<String> checked = new java.util.concurrent.CopyOnWriteArrayList<>();
  /** Refuses the namespace "secret"; records what each request was checked for. */
  private final RequestAccess access = (token, namespace, write) -> {
    checked.add(namespace + (write ? " write" : " read"));
    return namespace.equals("secret") ? java.util.Optional.of("no right to " + namespace) : java.util.Optional.empty();
  };
  private ScheduledExecutorService timer;
  private ClientGrpcServer server;
  private RawNacosClient client;

  @BeforeEach
  void start() throws Exception {
    timer = Executors.newScheduledThreadPool(2);
    ChangePushes.Retry fast = new ChangePushes.Retry(Duration.ofMillis(300), Duration.ofMillis(50),
        Duration.ofMillis(100), 3);
    ClientRequestHandlers.Factory naming = (codec, connections) -> new ClientRequestHandlers(
        Map.of("ServiceQueryRequest", ClientRequestHandlers.now((c, p) -> dev.nacre.node.client.Replies.ok(codec,
            "QueryServiceResponse"))), Set.of(), Set.of("ServiceQueryRequest"));
    server = ClientGrpcServer.start("test", new InetSocketAddress("127.0.0.1", 0), ClientSettings.defaults(),
        ClientRequestHandlers.combine(naming, ConfigClientRequests.on("test", configs, configs, fast, counts)),
        Clock.systemUTC(), timer, List.of(), ClientRequestObserver.NONE, access);
    client = new RawNacosClient(server.port());
    client.call("ServerCheckRequest", "{}");
    client.setUp();
    client.next("SetupAckRequest", WAIT);
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
    timer.shutdownNow();
  }

  @Test
  void combinedDomainsShareThePortAndATypeBelongsToOneDomain() {
    assertThat(client.call("ServiceQueryRequest", "{}").type()).isEqualTo("QueryServiceResponse");
    ClientRequestHandlers.Factory twice = ClientRequestHandlers.combine(
        ConfigClientRequests.on("t", configs, configs, Duration.ofSeconds(1), ConfigPushObserver.NONE),
        ConfigClientRequests.on("t", configs, configs, Duration.ofSeconds(1), ConfigPushObserver.NONE));
    assertThatThrownBy(() -> twice.create(null, server.connections()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageMatching("two domains answer \\w+Request on the client port.*");
  }

  @Test
  void accessIsCheckedOnTheTenantOfConfigRequestsAndTheNamespaceOfNamingOnes() {
    Reply refused = client.call("ConfigQueryRequest", "{\"dataId\":\"d\",\"group\":\"g\",\"tenant\":\"secret\"}");
    assertThat(List.of(refused.type(), refused.errorCode())).containsExactly("ErrorResponse", 403);
    client.call("ConfigPublishRequest", "{\"dataId\":\"d\",\"group\":\"g\",\"tenant\":\"t1\",\"content\":\"v\"}");
    client.call("ServiceQueryRequest", "{\"namespace\":\"n1\",\"tenant\":\"wrong\"}");
    Reply listen = client.call("ConfigBatchListenRequest", "{\"listen\":true,\"configListenContexts\":["
        + "{\"dataId\":\"d\",\"group\":\"g\",\"tenant\":\"secret\",\"md5\":\"\"}]}");
    assertThat(listen.errorCode()).isEqualTo(403);
    assertThat(checked).containsExactly("secret read", "t1 write", "n1 read", "secret read");
    assertThat(configs.publishes).hasSize(1);
  }

  @Test
  void missingConfigIsCode300InTheQueryResponse() {
    Reply r = client.call("ConfigQueryRequest", "{\"dataId\":\"d\",\"group\":\"g\",\"tenant\":\"\",\"module\":\"config\"}");
    assertThat(r.type()).isEqualTo("ConfigQueryResponse");
    assertThat(r.resultCode()).isEqualTo(500);
    assertThat(r.errorCode()).isEqualTo(300);
  }

  @Test
  void publishThenQueryWithAdditionMapAndPublicTenantAsEmpty() {
    Reply p = client.call("ConfigPublishRequest", "{\"dataId\":\"d\",\"group\":\"g\",\"tenant\":\"public\","
        + "\"content\":\"a=1\",\"additionMap\":{\"type\":\"properties\",\"appName\":\"app\",\"desc\":\"x\","
        + "\"config_tags\":\"t1,t2\",\"src_user\":\"bob\",\"tag\":null,\"betaIps\":null,\"encryptedDataKey\":\"\"}}");
    assertThat(p.type()).isEqualTo("ConfigPublishResponse");
    assertThat(p.resultCode()).isEqualTo(200);
    var sent = configs.publishes.get(0);
    assertThat(sent.key()).isEqualTo(new ConfigKey("", "g", "d"));
    assertThat(List.of(sent.type(), sent.appName(), sent.desc(), sent.tags(), sent.user(), sent.sourceIp()))
        .containsExactly("properties", "app", "x", "t1,t2", "bob", "127.0.0.1");
    assertThat(sent.tag()).isEmpty();
    assertThat(sent.betaIps()).isEmpty();
    assertThat(sent.casMd5()).isEmpty();

    Reply q = client.call("ConfigQueryRequest", "{\"dataId\":\"d\",\"group\":\"g\",\"tenant\":\"\"}");
    assertThat(q.resultCode()).isEqualTo(200);
    assertThat(q.body().path("content").asText()).isEqualTo("a=1");
    assertThat(q.body().path("md5").asText()).isEqualTo(RecordingConfigs.md5("a=1"));
    assertThat(q.body().path("contentType").asText()).isEqualTo("properties");
    assertThat(q.body().path("beta").asBoolean()).isFalse();
  }

  @Test
  void casConflictIsAFailedPublishResponse() {
    client.call("ConfigPublishRequest", "{\"dataId\":\"d\",\"group\":\"g\",\"content\":\"v1\"}");
    Reply ok = client.call("ConfigPublishRequest", "{\"dataId\":\"d\",\"group\":\"g\",\"content\":\"v2\",\"casMd5\":\""
        + RecordingConfigs.md5("v1") + "\"}");
    assertThat(ok.resultCode()).isEqualTo(200);
    Reply conflict = client.call("ConfigPublishRequest", "{\"dataId\":\"d\",\"group\":\"g\",\"content\":\"v3\",\"casMd5\":\""
        + RecordingConfigs.md5("v1") + "\"}");
    assertThat(conflict.type()).isEqualTo("ConfigPublishResponse");
    assertThat(conflict.resultCode()).isEqualTo(500);
    assertThat(conflict.errorCode()).isEqualTo(400);
    assertThat(conflict.body().path("success").asBoolean()).isFalse();
    assertThat(conflict.body().path("message").asText()).contains("md5");
  }

  @Test
  void everyErrorKindIsATypedFailureWithItsCode() {
    configs.failNext = new ConfigException(ConfigException.Kind.UNAVAILABLE, "no quorum: retry");
    Reply r = client.call("ConfigPublishRequest", "{\"dataId\":\"d\",\"group\":\"g\",\"content\":\"v\"}");
    assertThat(List.of(r.type(), r.resultCode(), r.errorCode())).containsExactly("ConfigPublishResponse", 500, 503);
    assertThat(r.body().path("message").asText()).isEqualTo("no quorum: retry");
    configs.failNext = new ConfigException(ConfigException.Kind.LIMITED, "too many");
    assertThat(client.call("ConfigPublishRequest", "{\"dataId\":\"d\",\"group\":\"g\",\"content\":\"v\"}").errorCode())
        .isEqualTo(503);
    configs.failNext = new ConfigException(ConfigException.Kind.INVALID, "content too large");
    Reply invalid = client.call("ConfigPublishRequest", "{\"dataId\":\"d\",\"group\":\"g\",\"content\":\"v\"}");
    assertThat(invalid.errorCode()).isEqualTo(400);
    assertThat(invalid.body().path("message").asText()).isEqualTo("Param check invalid:content too large");

    Reply noDataId = client.call("ConfigQueryRequest", "{\"group\":\"g\"}");
    assertThat(List.of(noDataId.type(), noDataId.errorCode())).containsExactly("ErrorResponse", 400);
    Reply noContent = client.call("ConfigPublishRequest", "{\"dataId\":\"d\",\"group\":\"g\"}");
    assertThat(noContent.errorCode()).isEqualTo(400);
    Reply notJson = client.call("ConfigBatchListenRequest", "{not json");
    assertThat(List.of(notJson.type(), notJson.errorCode())).containsExactly("ErrorResponse", 502);
    Reply wrongShape = client.call("ConfigBatchListenRequest", "{\"configListenContexts\":7}");
    assertThat(wrongShape.errorCode()).isEqualTo(502);
  }

  @Test
  void betaContentGoesToTheConnectionsAddress() {
    client.call("ConfigPublishRequest", "{\"dataId\":\"d\",\"group\":\"g\",\"content\":\"formal\"}");
    client.call("ConfigPublishRequest", "{\"dataId\":\"d\",\"group\":\"g\",\"content\":\"beta\","
        + "\"additionMap\":{\"betaIps\":\"10.0.0.9,127.0.0.1\"}}");
    assertThat(configs.publishes.get(1).betaIps()).contains("10.0.0.9,127.0.0.1");
    Reply q = client.call("ConfigQueryRequest", "{\"dataId\":\"d\",\"group\":\"g\"}");
    assertThat(q.body().path("content").asText()).isEqualTo("beta");
    assertThat(q.body().path("beta").asBoolean()).isTrue();
  }

  @Test
  void listenAnswersDifferingKeysAndPushesChangesWithTheTenantAsSent() throws Exception {
    client.call("ConfigPublishRequest", "{\"dataId\":\"same\",\"group\":\"g\",\"content\":\"s\"}");
    client.call("ConfigPublishRequest", "{\"dataId\":\"other\",\"group\":\"g\",\"content\":\"o\"}");
    Reply r = client.call("ConfigBatchListenRequest", "{\"listen\":true,\"configListenContexts\":["
        + "{\"dataId\":\"same\",\"group\":\"g\",\"tenant\":\"public\",\"md5\":\"" + RecordingConfigs.md5("s") + "\"},"
        + "{\"dataId\":\"other\",\"group\":\"g\",\"tenant\":\"public\",\"md5\":\"stale\"},"
        + "{\"dataId\":\"absent\",\"group\":\"g\",\"tenant\":\"public\",\"md5\":\"\"}]}");
    assertThat(r.type()).isEqualTo("ConfigChangeBatchListenResponse");
    assertThat(r.body().path("changedConfigs")).hasSize(1);
    JsonNode changed = r.body().path("changedConfigs").get(0);
    assertThat(List.of(changed.path("dataId").asText(), changed.path("group").asText(), changed.path("tenant").asText()))
        .containsExactly("other", "g", "public");

    client.call("ConfigPublishRequest", "{\"dataId\":\"same\",\"group\":\"g\",\"tenant\":\"\",\"content\":\"s2\"}");
    JsonNode push = RawNacosClient.body(client.next("ConfigChangeNotifyRequest", WAIT));
    assertThat(List.of(push.path("dataId").asText(), push.path("group").asText(), push.path("tenant").asText()))
        .containsExactly("same", "g", "public");
    await().atMost(WAIT).until(() -> counts.count(Outcome.ACKED) == 1);

    // The client now holds s2's md5: a change back to the content it listened with is told too.
    client.call("ConfigPublishRequest", "{\"dataId\":\"same\",\"group\":\"g\",\"content\":\"s\"}");
    client.next("ConfigChangeNotifyRequest", WAIT);
    await().atMost(WAIT).until(() -> counts.count(Outcome.ACKED) == 2);
    // The domain telling again without a change sends nothing.
    configs.changed(new ConfigKey("", "g", "same"));
    await().atMost(WAIT).until(() -> counts.count(Outcome.UNCHANGED) == 1);
  }

  /**
   * A change applied while the notification of an earlier change that left the md5 as the client
   * knows it is being decided (a remove of an absent key, then a publish) merges into it; it must
   * still reach the client.
   */
  @Test
  void aChangeMergedIntoAnUnchangedNotificationIsStillTold() throws Exception {
    listen("race", "");
    configs.afterNextMd5Read = () ->
        configs.publish(new PublishRequest(new ConfigKey("", "g", "race"), "v", "", "", "", "", "", "", "",
            Optional.empty(), Optional.empty(), Optional.empty()));
    configs.changed(new ConfigKey("", "g", "race"));
    JsonNode push = RawNacosClient.body(client.next("ConfigChangeNotifyRequest", WAIT));
    assertThat(push.path("dataId").asText()).isEqualTo("race");
    await().atMost(WAIT).until(() -> counts.count(Outcome.UNCHANGED) == 1 && counts.count(Outcome.ACKED) == 1);
  }

  @Test
  void unacknowledgedNotificationsAreRetriedThenGivenUp() throws Exception {
    listen("d", "");
    client.answerServerRequests(false);
    client.call("ConfigPublishRequest", "{\"dataId\":\"d\",\"group\":\"g\",\"content\":\"v\"}");
    for (int i = 0; i < 3; i++) {
      client.next("ConfigChangeNotifyRequest", WAIT);
    }
    await().atMost(WAIT).until(() -> counts.count(Outcome.GAVE_UP) == 1);
    assertThat(counts.count(Outcome.FAILED)).isEqualTo(2);
    assertThat(counts.count(Outcome.ACKED)).isZero();
  }

  @Test
  void aRetryThatIsAnsweredCountsOnceAcked() throws Exception {
    listen("d", "");
    client.answerServerRequests(false);
    client.call("ConfigPublishRequest", "{\"dataId\":\"d\",\"group\":\"g\",\"content\":\"v\"}");
    client.next("ConfigChangeNotifyRequest", WAIT);
    client.answerServerRequests(true);
    client.next("ConfigChangeNotifyRequest", WAIT);
    await().atMost(WAIT).until(() -> counts.count(Outcome.ACKED) == 1);
    assertThat(counts.count(Outcome.FAILED)).isEqualTo(1);
    assertThat(counts.count(Outcome.GAVE_UP)).isZero();
  }

  @Test
  void cancelledAndClosedListenersHearNothingMore() throws Exception {
    listen("d", "");
    client.call("ConfigBatchListenRequest", "{\"listen\":false,\"configListenContexts\":["
        + "{\"dataId\":\"d\",\"group\":\"g\",\"tenant\":\"\",\"md5\":\"\"}]}");
    assertThat(configs.calls).contains("cancel d+g");
    assertThat(configs.listened()).isZero();
    client.call("ConfigPublishRequest", "{\"dataId\":\"d\",\"group\":\"g\",\"content\":\"v\"}");
    listen("e", "");
    assertThat(configs.listened()).isEqualTo(1);
    client.close();
    await().atMost(WAIT).until(() -> configs.listened() == 0);
    assertThat(configs.calls).anyMatch(c -> c.startsWith("cancelAll "));
    assertThat(counts.count(Outcome.ACKED) + counts.count(Outcome.FAILED)).isZero();
  }

  @Test
  void metricRequestGetsAnEmptyMap() {
    Reply r = client.call("ClientConfigMetricRequest", "{\"metricsKeys\":[{\"type\":\"cacheData\",\"key\":\"d+g\"}]}");
    assertThat(r.type()).isEqualTo("ClientConfigMetricResponse");
    assertThat(r.body().path("metrics").isObject()).isTrue();
    assertThat(r.body().path("metrics")).isEmpty();
  }

  private void listen(String dataId, String md5) {
    Reply r = client.call("ConfigBatchListenRequest", "{\"listen\":true,\"configListenContexts\":["
        + "{\"dataId\":\"" + dataId + "\",\"group\":\"g\",\"tenant\":\"\",\"md5\":\"" + md5 + "\"}]}");
    assertThat(r.resultCode()).isEqualTo(200);
  }

}
