package dev.nacre.node.configs.http;

import static dev.nacre.node.configs.http.ConfigClient.probe;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nacre.node.configs.http.ConfigClient.Answer;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import com.alibaba.nacos.api.config.ConfigFactory;
import com.alibaba.nacos.api.config.ConfigService;
import com.alibaba.nacos.api.config.listener.AbstractListener;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * What the config HTTP APIs promise, over real HTTP, whatever serves them: run against the HTTP
 * layer on a recording fake of the config module and against a real node. Each test uses its own
 * dataIds.
 */
@Timeout(60)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ConfigHttpContract {
  static final String V1 = ConfigV1Api.CONFIGS;
  static final String V2 = ConfigV2Api.CONFIG;

  abstract ConfigClient client();

  Answer publish(String dataId, String content, String... more) {
    List<String> pairs = new ArrayList<>(List.of("dataId", dataId, "group", "G", "content", content));
    pairs.addAll(List.of(more));
    return client().post(V1, pairs.toArray(String[]::new));
  }

  @Test
  void v1PublishGetAndDelete() {
    Answer published = publish("app.yaml", "a: 1\n", "type", "yaml", "appName", "shop", "src_user", "ann");
    assertThat(published.status()).as(published.body()).isEqualTo(200);
    assertThat(published.body()).isEqualTo("true");

    Answer read = client().get(V1, "dataId", "app.yaml", "group", "G");
    assertThat(read.status()).isEqualTo(200);
    assertThat(read.body()).isEqualTo("a: 1\n");
    assertThat(read.header("Content-MD5")).contains(FakeConfig.md5("a: 1\n"));
    assertThat(read.header("Config-Type")).contains("yaml");
    assertThat(read.header("Last-Modified")).hasValueSatisfying(
        d -> assertThat(d).matches("[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT"));
    assertThat(read.header("Expires")).contains("Thu, 01 Jan 1970 00:00:00 GMT");
    assertThat(read.header("Encrypted-Data-Key")).isEmpty();

    JsonNode detail = client().get(V1, "dataId", "app.yaml", "group", "G", "show", "all").json();
    assertThat(detail.get("appName").asText()).isEqualTo("shop");
    assertThat(detail.get("content").asText()).isEqualTo("a: 1\n");

    Answer deleted = client().delete(V1, "dataId", "app.yaml", "group", "G");
    assertThat(deleted.body()).isEqualTo("true");
    Answer gone = client().get(V1, "dataId", "app.yaml", "group", "G");
    assertThat(gone.status()).isEqualTo(404);
    assertThat(gone.body()).contains("config data not exist");
  }

  @Test
  void v1MissingIsNotFoundAndNamespacesAreApart() {
    assertThat(client().get(V1, "dataId", "never", "group", "G").status()).isEqualTo(404);
    assertThat(publish("ns.one", "x", "tenant", "dev").status()).isEqualTo(200);
    assertThat(client().get(V1, "dataId", "ns.one", "group", "G").status()).isEqualTo(404);
    assertThat(client().get(V1, "dataId", "ns.one", "group", "G", "tenant", "dev").body()).isEqualTo("x");
    // "public" and no tenant are one namespace.
    assertThat(publish("ns.two", "y").status()).isEqualTo(200);
    assertThat(client().get(V1, "dataId", "ns.two", "group", "G", "tenant", "public").body()).isEqualTo("y");
  }

  @Test
  void v1AnswersInNacosShapes() {
    assertThat(publish("shape.json", "{\"a\":1}", "type", "json").status()).isEqualTo(200);
    Answer read = client().get(V1, "dataId", "shape.json", "group", "G");
    assertThat(read.header("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
    assertThat(read.header("Cache-Control")).contains("no-cache,no-store");
    // An absent configuration's detail is an empty 200; its beta a RestResult without data.
    Answer noDetail = client().get(V1, "dataId", "shape.none", "group", "G", "show", "all");
    assertThat(noDetail.status()).isEqualTo(200);
    assertThat(noDetail.body()).isEmpty();
    JsonNode noBeta = client().get(V1, "dataId", "shape.none", "group", "G", "beta", "true").json();
    assertThat(noBeta.get("code").asInt()).isEqualTo(200);
    assertThat(noBeta.get("data").isNull()).isTrue();
    // Content keeps its spaces and newlines; an unknown type is stored as text.
    assertThat(publish("shape.text", "  padded\n\n", "type", "nonsense").status()).isEqualTo(200);
    Answer text = client().get(V1, "dataId", "shape.text", "group", "G");
    assertThat(text.body()).isEqualTo("  padded\n\n");
    assertThat(text.header("Config-Type")).contains("text");
  }

  @Test
  void v1RefusesBadInputWith400() {
    Answer badId = publish("bad id!", "x");
    assertThat(badId.status()).isEqualTo(400);
    assertThat(badId.body()).contains("invalid dataId");
    Answer noContent = client().post(V1, "dataId", "ok.id", "group", "G");
    assertThat(noContent.status()).isEqualTo(400);
    assertThat(noContent.body()).contains("content");
    assertThat(publish("ok.id", "   ").status()).isEqualTo(400);
    assertThat(client().get(V1, "dataId", "ok.id", "group", "bad group").status()).isEqualTo(400);
    assertThat(client().get(V1, "group", "G").status()).isEqualTo(400);
    assertThat(client().get(V1, "search", "blur", "pageNo", "x").status()).isEqualTo(400);
    assertThat(client().get(V1, "search", "fuzzy").status()).isEqualTo(400);
  }

  @Test
  void v1CasPublishesOnlyOverTheKnownMd5() {
    assertThat(publish("cas.id", "one").status()).isEqualTo(200);
    Answer stale = publish("cas.id", "two", "casMd5", FakeConfig.md5("zero"));
    assertThat(stale.status()).isEqualTo(500);
    assertThat(stale.body()).containsIgnoringCase("cas");
    assertThat(client().get(V1, "dataId", "cas.id", "group", "G").body()).isEqualTo("one");
    assertThat(publish("cas.id", "two", "casMd5", FakeConfig.md5("one")).status()).isEqualTo(200);
    assertThat(client().get(V1, "dataId", "cas.id", "group", "G").body()).isEqualTo("two");
  }

  @Test
  void v1BlurSearchPages() {
    for (int i = 0; i < 5; i++) {
      assertThat(publish("page.item" + i, "c" + i, "tenant", "paging").status()).isEqualTo(200);
    }
    JsonNode first = client().get(V1, "search", "blur", "dataId", "page.*", "group", "", "tenant", "paging",
        "pageNo", "1", "pageSize", "2").json();
    assertThat(first.get("totalCount").asInt()).isEqualTo(5);
    assertThat(first.get("pagesAvailable").asInt()).isEqualTo(3);
    assertThat(first.get("pageNumber").asInt()).isEqualTo(1);
    assertThat(first.get("pageItems")).hasSize(2);
    JsonNode item = first.get("pageItems").get(0);
    assertThat(item.get("group").asText()).isEqualTo("G");
    assertThat(item.get("tenant").asText()).isEqualTo("paging");
    assertThat(item.has("md5") && item.has("content") && item.has("type") && item.has("id")).isTrue();
    JsonNode last = client().get(V1, "search", "blur", "dataId", "page.*", "tenant", "paging",
        "pageNo", "3", "pageSize", "2").json();
    assertThat(last.get("pageItems")).hasSize(1);
    JsonNode exact = client().get(V1, "search", "accurate", "dataId", "page.item3", "group", "G",
        "tenant", "paging").json();
    assertThat(exact.get("totalCount").asInt()).isEqualTo(1);
  }

  @Test
  void historyListsDetailAndPrevious() {
    publish("hist.id", "v1", "tenant", "h");
    publish("hist.id", "v2", "tenant", "h");
    client().delete(V1, "dataId", "hist.id", "group", "G", "tenant", "h");
    JsonNode page = client().get(HistoryApi.V1, "search", "accurate", "dataId", "hist.id", "group", "G",
        "tenant", "h", "pageNo", "1", "pageSize", "10").json();
    assertThat(page.get("totalCount").asInt()).isEqualTo(3);
    JsonNode items = page.get("pageItems");
    assertThat(items.get(0).get("opType").asText().trim()).isEqualTo("D");
    assertThat(items.get(1).get("opType").asText().trim()).isEqualTo("U");
    assertThat(items.get(2).get("opType").asText().trim()).isEqualTo("I");

    String updateId = items.get(1).get("id").asText();
    JsonNode update = client().get(HistoryApi.V1, "nid", updateId, "dataId", "hist.id", "group", "G",
        "tenant", "h").json();
    assertThat(update.get("content").asText()).isEqualTo("v2");
    assertThat(update.get("md5").asText()).isEqualTo(FakeConfig.md5("v2"));
    JsonNode previous = client().get(HistoryApi.V1 + "/previous", "id", updateId, "dataId", "hist.id",
        "group", "G", "tenant", "h").json();
    assertThat(previous.get("content").asText()).isEqualTo("v1");
    assertThat(client().get(HistoryApi.V1, "nid", "1", "dataId", "hist.none", "group", "G").status())
        .isEqualTo(404);

    publish("hist.other", "o", "tenant", "h2");
    JsonNode configs = client().get(HistoryApi.V1 + "/configs", "tenant", "h2").json();
    assertThat(configs).hasSize(1);
    assertThat(configs.get(0).get("dataId").asText()).isEqualTo("hist.other");
  }

  @Test
  void longPollAnswersAtOnceWhenTheMd5Differs() throws Exception {
    publish("lp.now", "content");
    Answer answer = client().poll(probe("lp.now", "G", "stale", ""), 30_000, false).get(5, TimeUnit.SECONDS);
    assertThat(answer.status()).isEqualTo(200);
    assertThat(URLDecoder.decode(answer.body(), StandardCharsets.UTF_8)).isEqualTo("lp.now\u0002G\u0001");
    // Up to date, but the client asks not to be held.
    Answer noHangup = client().poll(probe("lp.now", "G", FakeConfig.md5("content"), ""), 30_000, true)
        .get(5, TimeUnit.SECONDS);
    assertThat(noHangup.body()).isEmpty();
  }

  @Test
  void longPollAnswersEarlyOnAChange() throws Exception {
    publish("lp.held", "one", "tenant", "lp");
    String md5 = FakeConfig.md5("one");
    CompletableFuture<Answer> held = client().poll(probe("lp.other", "G", "", "") + probe("lp.held", "G", md5, "lp"),
        30_000, false);
    awaitHeld(held, "lp.held", "lp");
    publish("lp.held", "two", "tenant", "lp");
    Answer answer = held.get(5, TimeUnit.SECONDS);
    assertThat(URLDecoder.decode(answer.body(), StandardCharsets.UTF_8)).isEqualTo("lp.held\u0002G\u0002lp\u0001");
  }

  @Test
  void longPollTimesOutEmpty() throws Exception {
    long start = System.nanoTime();
    // Nacos holds at least 10 s, whatever shorter timeout the client asks for.
    Answer answer = client().poll(probe("lp.quiet", "G", "", ""), 1_000, false).get(20, TimeUnit.SECONDS);
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.body()).isEmpty();
    assertThat(millis).isBetween(9_000L, 15_000L);
  }

  @Test
  void longPollRefusesMalformedProbes() throws Exception {
    assertThat(client().poll("only\u0002two\u0001", 30_000, false).get(5, TimeUnit.SECONDS).status()).isEqualTo(400);
    assertThat(client().poll("", 30_000, false).get(5, TimeUnit.SECONDS).status()).isEqualTo(400);
    assertThat(client().poll(probe("bad id", "G", "", ""), 30_000, false).get(5, TimeUnit.SECONDS).status())
        .isEqualTo(400);
  }

  /**
   * Waits until the poll is held, listening on the key (it registers right after the request
   * arrives). By default: the poll stays unanswered for half a second.
   */
  void awaitHeld(CompletableFuture<Answer> held, String dataId, String tenant) {
    await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> !held.isDone());
  }

  @Test
  void v2Basics() {
    Answer published = client().post(V2, "dataId", "v2.id", "group", "G", "namespaceId", "v2ns",
        "content", "hello", "srcUser", "bob");
    assertThat(published.status()).as(published.body()).isEqualTo(200);
    JsonNode ok = published.json();
    assertThat(ok.get("code").asInt()).isZero();
    assertThat(ok.get("message").asText()).isEqualTo("success");
    assertThat(ok.get("data").asBoolean()).isTrue();

    JsonNode read = client().get(V2, "dataId", "v2.id", "group", "G", "namespaceId", "v2ns").json();
    assertThat(read.get("data").asText()).isEqualTo("hello");

    JsonNode history = client().get(HistoryApi.V2 + "/list", "dataId", "v2.id", "group", "G",
        "namespaceId", "v2ns").json();
    assertThat(history.get("data").get("totalCount").asInt()).isEqualTo(1);
    String nid = history.get("data").get("pageItems").get(0).get("id").asText();
    JsonNode one = client().get(HistoryApi.V2, "dataId", "v2.id", "group", "G", "namespaceId", "v2ns",
        "nid", nid).json();
    assertThat(one.get("data").get("content").asText()).isEqualTo("hello");
    JsonNode configs = client().get(HistoryApi.V2 + "/configs", "namespaceId", "v2ns").json();
    assertThat(configs.get("data")).hasSize(1);

    JsonNode deleted = client().delete(V2, "dataId", "v2.id", "group", "G", "namespaceId", "v2ns").json();
    assertThat(deleted.get("data").asBoolean()).isTrue();
    Answer gone = client().get(V2, "dataId", "v2.id", "group", "G", "namespaceId", "v2ns");
    v2Error(gone, 404, 20004, "resource not found");
    assertThat(gone.json().get("data").asText()).isEqualTo("config data not exist");
  }

  @Test
  void v2ErrorCodes() {
    v2Error(client().get(V2, "group", "G"), 400, 10000, "parameter missing");
    v2Error(client().get(V2, "dataId", "x"), 400, 10000, "parameter missing");
    v2Error(client().post(V2, "dataId", "x", "group", "G"), 400, 10000, "parameter missing");
    v2Error(client().post(V2, "dataId", "bad id", "group", "G", "content", "c"), 400, 20002,
        "parameter validate error");
    client().post(V2, "dataId", "v2.cas", "group", "G", "content", "a");
    v2Error(client().post(V2, "dataId", "v2.cas", "group", "G", "content", "b", "casMd5", "nope"), 500, 20005,
        "resource conflict");
    v2Error(client().get(HistoryApi.V2, "dataId", "v2.cas", "group", "G"), 400, 10000, "parameter missing");
    v2Error(client().get(HistoryApi.V2, "dataId", "v2.cas", "group", "G", "nid", "999999"), 404, 20004,
        "resource not found");
    v2Error(client().get(HistoryApi.V2 + "/previous", "dataId", "v2.cas", "group", "G", "id", "1"), 404, 20004,
        "resource not found");
  }

  /** The official 1.4.8 client: publish, read, listen (HTTP long polling) and remove. */
  @Test
  void nacos1ClientPublishesReadsAndHearsChanges() throws Exception {
    Properties props = new Properties();
    props.setProperty("serverAddr", "127.0.0.1:" + client().port());
    props.setProperty("namespace", "client14");
    ConfigService service = ConfigFactory.createConfigService(props);
    try {
      assertThat(service.publishConfig("client.id", "G", "one")).isTrue();
      assertThat(service.getConfig("client.id", "G", 3_000)).isEqualTo("one");
      BlockingQueue<String> heard = new LinkedBlockingQueue<>();
      service.addListener("client.id", "G", new AbstractListener() {
        @Override
        public void receiveConfigInfo(String content) {
          heard.add(content);
        }
      });
      assertThat(service.publishConfig("client.id", "G", "two")).isTrue();
      awaitTrue(() -> heard.contains("two"));
      assertThat(service.publishConfig("client.id", "G", "three")).isTrue();
      awaitTrue(() -> heard.contains("three"));
      assertThat(service.removeConfig("client.id", "G")).isTrue();
      assertThat(service.getConfig("client.id", "G", 3_000)).isNull();
    } finally {
      service.shutDown();
    }
  }

  /** Seeded random inputs on every config route: each is answered, none with a server error. */
  @Test
  void badInputIsNeverAServerErrorNorAHang() {
    long seed = Long.getLong("nacre.fuzz.seed", System.nanoTime());
    java.util.Random random = new java.util.Random(seed);
    String[] routes = {"GET " + V1, "POST " + V1, "DELETE " + V1, "POST " + LongPolling.LISTENER,
        "GET " + HistoryApi.V1, "GET " + HistoryApi.V1 + "/previous", "GET " + HistoryApi.V1 + "/configs",
        "GET " + V2, "POST " + V2, "DELETE " + V2, "GET " + HistoryApi.V2 + "/list", "GET " + HistoryApi.V2,
        "GET " + HistoryApi.V2 + "/previous", "GET " + HistoryApi.V2 + "/configs"};
    String[] names = {"dataId", "group", "tenant", "namespaceId", "content", "tag", "search", "pageNo", "pageSize",
        "nid", "id", "show", "beta", "type", "betaIps", "appName", "config_tags", "Listening-Configs", "groupName"};
    String[] values = {"", " ", "a", "fuzz.id", "G", "public", "-1", "0", "1", "99999999999999999999", "blur",
        "accurate", "all", "true", "json", "a b", "../x", "%zz", "\u0000", "a\u0002G\u0002m\u0001",
        "x".repeat(300), "\u0001\u0002", "中文", "*", "127.0.0.1"};
    List<String> failures = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      String[] route = routes[random.nextInt(routes.length)].split(" ", 2);
      java.util.Map<String, String> params = new java.util.LinkedHashMap<>();
      for (int n = random.nextInt(6); n > 0; n--) {
        params.put(names[random.nextInt(names.length)],
            values[random.nextInt(values.length)]);
      }
      String form = ConfigClient.form(params);
      Answer answer = route[0].equals("GET") || route[0].equals("DELETE")
          ? client().send(route[0], route[1] + "?" + form, null, java.util.Map.of(), Duration.ofSeconds(10))
          : client().send(route[0], route[1], form, java.util.Map.of(), Duration.ofSeconds(10));
      if (answer.status() >= 500 && answer.status() != 503) {
        failures.add(route[0] + " " + route[1] + " " + params + " -> " + answer.status() + " " + answer.body());
      }
    }
    assertThat(failures).as("seed " + seed).isEmpty();
  }

  static void v2Error(Answer answer, int status, int code, String message) {
    assertThat(answer.status()).as(answer.body()).isEqualTo(status);
    JsonNode body = answer.json();
    assertThat(body.get("code").asInt()).as(answer.body()).isEqualTo(code);
    assertThat(body.get("message").asText()).isEqualTo(message);
  }

  static void awaitTrue(java.util.function.BooleanSupplier condition) {
    await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(condition::getAsBoolean);
  }
}
