package dev.nacre.client3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.alibaba.nacos.api.config.ConfigService;
import com.alibaba.nacos.api.config.listener.AbstractListener;
import com.alibaba.nacos.api.exception.NacosException;
import dev.nacre.testkit.process.NacreClusterExtension;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The official nacos-client 3.1.x {@code ConfigService}, created with nothing but a server address,
 * against a 3-node Nacre cluster of real processes: the calls a Nacos 3 application makes, a
 * listener that hears a change made by another client through another member, the namespace
 * {@code public} that 3.x clients send being the empty tenant of 2.x clients and the v1 API, and no
 * ERROR from the client's loggers throughout.
 */
@Timeout(120)
class Client3ConfigTest {
  private static final String GROUP = "DEFAULT_GROUP";
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final long READ_TIMEOUT_MS = 5_000;
  static final NacosLogRecorder log = NacosLogRecorder.installed();
  @RegisterExtension
  static final NacreClusterExtension nacre = new NacreClusterExtension(3, () -> System.out.println(
      "Nacos client WARN/ERROR lines:\n" + String.join("\n", log.warnings()) + "\n" + String.join("\n", log.errors())));
  final Client3Clients clients = new Client3Clients();

  @AfterEach
  void closeClientsAndCheckTheirLogs() throws Exception {
    clients.close();
    assertThat(log.errors()).as("ERROR lines of com.alibaba.nacos").isEmpty();
  }

  @AfterAll
  static void clientLogged() {
    // The client did log through logback-test.xml: an empty ERROR list means something.
    assertThat(log.events()).as("events recorded from com.alibaba.nacos").isPositive();
    System.out.println("Nacos client WARN lines:\n" + String.join("\n", log.warnings()));
    System.out.println("nacos-client's own shutdown race logged " + log.configShutdownRaces() + " times (NacosLogRecorder)");
  }

  @Test
  void publishGetAndRemove() throws NacosException {
    ConfigService configs = clients.config(nacre.cluster().serverAddr());
    assertThat(configs.publishConfig("c3.crud", GROUP, "greeting=hello", "properties")).isTrue();
    assertThat(configs.getConfig("c3.crud", GROUP, READ_TIMEOUT_MS)).isEqualTo("greeting=hello");

    assertThat(configs.publishConfig("c3.crud", GROUP, "greeting=bonjour")).isTrue();
    assertThat(configs.getConfig("c3.crud", GROUP, READ_TIMEOUT_MS)).isEqualTo("greeting=bonjour");

    assertThat(configs.removeConfig("c3.crud", GROUP)).isTrue();
    assertThat(configs.getConfig("c3.crud", GROUP, READ_TIMEOUT_MS)).isNull();
  }

  @Test
  void compareAndSetPublishSucceedsOnTheCurrentMd5AndFailsOnAStaleOne() throws NacosException {
    ConfigService configs = clients.config(nacre.cluster().serverAddr());
    assertThat(configs.publishConfig("c3.cas", GROUP, "v1")).isTrue();

    assertThat(configs.publishConfigCas("c3.cas", GROUP, "v2", md5("v1"))).as("CAS on v1's md5").isTrue();
    assertThat(configs.getConfig("c3.cas", GROUP, READ_TIMEOUT_MS)).isEqualTo("v2");

    assertThat(configs.publishConfigCas("c3.cas", GROUP, "v3", md5("v1"))).as("CAS on a stale md5").isFalse();
    assertThat(configs.getConfig("c3.cas", GROUP, READ_TIMEOUT_MS)).isEqualTo("v2");
  }

  @Test
  void getConfigOfAMissingConfigurationAnswersNullWithoutWaitingForItsTimeout() throws NacosException {
    ConfigService configs = clients.config(nacre.cluster().serverAddr());
    long start = System.nanoTime();
    assertThat(configs.getConfig("c3.never.published", GROUP, READ_TIMEOUT_MS)).isNull();
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertThat(took).as("getConfig of a missing configuration").isLessThan(Duration.ofSeconds(2));
  }

  @Test
  void listenerHearsChangesPublishedByAnotherClientThroughAnotherMember() throws NacosException {
    ConfigService listening = clients.config(nacre.cluster().address(0));
    ConfigService publishing = clients.config(nacre.cluster().address(1));
    List<String> heard = new CopyOnWriteArrayList<>();
    listening.addListener("c3.listened", GROUP, new AbstractListener() {
      @Override
      public void receiveConfigInfo(String content) {
        heard.add(content);
      }
    });

    assertThat(publishing.publishConfig("c3.listened", GROUP, "first")).isTrue();
    await("listener on member 0 hears the publish on member 1").atMost(WAIT)
        .untilAsserted(() -> assertThat(heard).contains("first"));
    assertThat(publishing.publishConfig("c3.listened", GROUP, "second")).isTrue();
    await("listener hears the next publish").atMost(WAIT)
        .untilAsserted(() -> assertThat(heard).endsWith("second"));
    assertThat(heard).containsSubsequence("first", "second");
  }

  @Test
  void namespacePublicOfThe3xClientIsTheEmptyTenantOfThe2xClientAndV1() throws Exception {
    ConfigService configs = clients.config(nacre.cluster().address(0));
    assertThat(configs.publishConfig("c3.public", GROUP, "from-3x")).isTrue();

    // Read as a 2.x client or the v1 API do: no tenant at all, on another member.
    HttpResponse<String> read = nacre.cluster().get(2, "/nacos/v1/cs/configs?dataId=c3.public&group=" + GROUP);
    assertThat(read).as("member 2 answered").isNotNull();
    assertThat(read.statusCode()).as("GET without tenant: %s", read.body()).isEqualTo(200);
    assertThat(read.body()).isEqualTo("from-3x");

    // And the other way: a v1 publish without tenant is what the 3.x client reads.
    HttpResponse<String> published = post(1, "/nacos/v1/cs/configs", "dataId=c3.public.v1&group=" + GROUP
        + "&content=" + URLEncoder.encode("from-v1", StandardCharsets.UTF_8));
    assertThat(published.statusCode()).as("v1 publish: %s", published.body()).isEqualTo(200);
    assertThat(configs.getConfig("c3.public.v1", GROUP, READ_TIMEOUT_MS)).isEqualTo("from-v1");
  }

  private static HttpResponse<String> post(int node, String path, String form) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + nacre.cluster().address(node) + path))
        .timeout(Duration.ofSeconds(10))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(form))
        .build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
  }

  private static String md5(String content) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(content.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
