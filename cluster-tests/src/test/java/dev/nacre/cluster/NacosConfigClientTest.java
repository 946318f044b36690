package dev.nacre.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.alibaba.nacos.api.config.ConfigService;
import com.alibaba.nacos.api.config.listener.AbstractListener;
import com.fasterxml.jackson.databind.JsonNode;
import dev.nacre.node.Node;
import dev.nacre.node.testkit.RawNacosClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official Nacos 2.5.1 client's ConfigService against one node, over the gRPC client port.
 * It lives here, not in the node module, because the node's tests carry the 1.x client, and the
 * two clients cannot share a classpath.
 */
@Timeout(60)
class NacosConfigClientTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  @TempDir static Path dir;
  private static Node node;
  private final NacosClients clients = new NacosClients();

  @BeforeAll
  static void start() {
    node = StandaloneNode.start(dir.resolve("n"), Map.of());
  }

  @AfterAll
  static void stop() {
    if (node != null) {
      node.close();
    }
  }

  @AfterEach
  void closeClients() {
    clients.close();
  }

  private ConfigService connect() {
    return clients.config(null, StandaloneNode.address(node));
  }

  @Test
  void publishGetRemove() throws Exception {
    ConfigService c = connect();
    assertThat(c.publishConfig("app.properties", "G1", "a=1", "properties")).isTrue();
    assertThat(c.getConfig("app.properties", "G1", 3000)).isEqualTo("a=1");
    assertThat(c.publishConfig("app.properties", "G1", "a=2")).isTrue();
    assertThat(c.getConfig("app.properties", "G1", 3000)).isEqualTo("a=2");
    assertThat(c.removeConfig("app.properties", "G1")).isTrue();
    assertThat(c.getConfig("app.properties", "G1", 3000)).isNull();
    // Removing what is not there succeeds, as on Nacos.
    assertThat(c.removeConfig("app.properties", "G1")).isTrue();
  }

  @Test
  void missingConfigIsNullAtOnce() throws Exception {
    ConfigService c = connect();
    long start = System.nanoTime();
    assertThat(c.getConfig("never-published", "G1", 3000)).isNull();
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
  }

  @Test
  void compareAndSetPublish() throws Exception {
    ConfigService c = connect();
    assertThat(c.publishConfig("cas", "G1", "v1")).isTrue();
    String md5v1 = md5("v1");
    assertThat(c.publishConfigCas("cas", "G1", "v2", md5v1)).isTrue();
    assertThat(c.publishConfigCas("cas", "G1", "v3", md5v1)).isFalse();
    assertThat(c.getConfig("cas", "G1", 3000)).isEqualTo("v2");
  }

  @Test
  void listenerHearsAnotherClientsPublishAndStopsWhenRemoved() throws Exception {
    ConfigService listening = connect();
    ConfigService witness = connect();
    ConfigService publisher = connect();
    List<String> heard = new CopyOnWriteArrayList<>();
    List<String> witnessed = new CopyOnWriteArrayList<>();
    AbstractListener listener = listener(heard);
    publisher.publishConfig("watched", "G1", "v1");
    listening.addListener("watched", "G1", listener);
    witness.addListener("watched", "G1", listener(witnessed));

    publisher.publishConfig("watched", "G1", "v2");
    await().atMost(WAIT).until(() -> heard.contains("v2") && witnessed.contains("v2"));

    listening.removeListener("watched", "G1", listener);
    publisher.publishConfig("watched", "G1", "v3");
    await().atMost(WAIT).until(() -> witnessed.contains("v3"));
    assertThat(heard).doesNotContain("v3");
  }

  @Test
  void betaContentForTheListedAddressesOnly() throws Exception {
    ConfigService c = connect();
    c.publishConfig("beta", "G1", "formal");
    int grpc = node.httpAddress().getPort() + 1000;
    try (RawNacosClient raw = new RawNacosClient(grpc)) {
      raw.call("ServerCheckRequest", "{}");
      raw.setUp();
      raw.next("SetupAckRequest", WAIT);
      var elsewhere = raw.call("ConfigPublishRequest", "{\"dataId\":\"beta-other\",\"group\":\"G1\",\"tenant\":\"\","
          + "\"content\":\"beta\",\"additionMap\":{\"betaIps\":\"10.9.9.9\"}}");
      assertThat(elsewhere.resultCode()).isEqualTo(200);
      c.publishConfig("beta-other", "G1", "formal");
      assertThat(c.getConfig("beta-other", "G1", 3000)).isEqualTo("formal");

      var here = raw.call("ConfigPublishRequest", "{\"dataId\":\"beta\",\"group\":\"G1\",\"tenant\":\"\","
          + "\"content\":\"beta\",\"additionMap\":{\"betaIps\":\"10.9.9.9,127.0.0.1\"}}");
      assertThat(here.resultCode()).isEqualTo(200);
      assertThat(c.getConfig("beta", "G1", 3000)).isEqualTo("beta");
      // A 3.x client names the public namespace "public": the same configuration.
      JsonNode q = raw.call("ConfigQueryRequest", "{\"dataId\":\"beta\",\"group\":\"G1\",\"tenant\":\"public\"}").body();
      assertThat(q.path("content").asText()).isEqualTo("beta");
      assertThat(q.path("beta").asBoolean()).isTrue();
    }
  }

  private static AbstractListener listener(List<String> into) {
    return new AbstractListener() {
      @Override
      public void receiveConfigInfo(String configInfo) {
        into.add(String.valueOf(configInfo));
      }
    };
  }

  private static String md5(String s) throws Exception {
    return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("MD5")
        .digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
  }
}
