package dev.nacre.node.configs.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.node.Node;
import dev.nacre.node.config.NodeConfig;
import dev.nacre.node.configs.http.ConfigClient.Answer;
import dev.nacre.node.testkit.FreePorts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The config HTTP APIs of a real node: its config module through Raft, over real HTTP. */
class ConfigHttpNodeTest extends ConfigHttpContract {
  private Path dir;
  private Node node;
  private ConfigClient client;

  @BeforeAll
  void start() throws Exception {
    dir = Files.createTempDirectory("nacre-config-http");
    Properties p = new Properties();
    p.setProperty(NodeConfig.PORT, String.valueOf(FreePorts.mainPort()));
    p.setProperty(NodeConfig.BIND, "127.0.0.1");
    p.setProperty(NodeConfig.DATA_DIR, dir.toString());
    p.setProperty("nacre.naming.probe.period-ms", String.valueOf(3_600_000));
    node = Node.start(NodeConfig.from(p));
    client = new ConfigClient(node.config().port());
    // Ready once a read is answered by config (404), not refused (503).
    awaitTrue(() -> client.get(V1, "dataId", "ready.probe", "group", "G").status() == 404);
  }

  @AfterAll
  void stop() throws Exception {
    try {
      if (node != null) {
        node.close();
      }
    } finally {
      try (Stream<Path> paths = Files.walk(dir)) {
        paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      }
    }
  }

  @Override
  ConfigClient client() {
    return client;
  }

  @Test
  void betaContentGoesToItsAddressesAndStops() {
    assertThat(publish("beta.id", "formal").status()).isEqualTo(200);
    Answer beta = client.send("POST", V1, ConfigClient.form(ConfigClient.params("dataId", "beta.id", "group", "G",
        "content", "beta")), java.util.Map.of("betaIps", "127.0.0.1"), java.time.Duration.ofSeconds(10));
    assertThat(beta.status()).as(beta.body()).isEqualTo(200);
    Answer read = client.get(V1, "dataId", "beta.id", "group", "G");
    assertThat(read.body()).isEqualTo("beta");
    assertThat(read.header("isBeta")).contains("true");
    assertThat(client.get(V1, "dataId", "beta.id", "group", "G", "beta", "true").json().get("data")
        .get("betaIps").asText()).contains("127.0.0.1");
    Answer stopped = client.delete(V1, "dataId", "beta.id", "group", "G", "beta", "true");
    assertThat(stopped.json().get("data").asBoolean()).isTrue();
    Answer formal = client.get(V1, "dataId", "beta.id", "group", "G");
    assertThat(formal.body()).isEqualTo("formal");
    assertThat(formal.header("isBeta")).isEmpty();
  }

  /** A form larger than the HTTP body cap (nacre.http.max-body-bytes, 1 MiB) is refused, not hung. */
  @Test
  void aPublishOverTheHttpBodyCapIsRefused() {
    Answer big = publish("big.id", "x".repeat(1_200_000));
    assertThat(big.status()).isEqualTo(413);
    assertThat(publish("big.id", "x".repeat(900_000)).status()).isEqualTo(200);
    assertThat(client.get(V1, "dataId", "big.id", "group", "G").body()).hasSize(900_000);
  }

  @Test
  void tagsAndEncryptedDataKeysRoundTrip() {
    assertThat(publish("tag.id", "formal").status()).isEqualTo(200);
    assertThat(publish("tag.id", "tagged", "tag", "blue").status()).isEqualTo(200);
    assertThat(client.get(V1, "dataId", "tag.id", "group", "G", "tag", "blue").body()).isEqualTo("tagged");
    assertThat(client.get(V1, "dataId", "tag.id", "group", "G").body()).isEqualTo("formal");
    assertThat(publish("secret.id", "cipher", "encryptedDataKey", "k3y").status()).isEqualTo(200);
    assertThat(client.get(V1, "dataId", "secret.id", "group", "G").header("Encrypted-Data-Key")).contains("k3y");
  }
}
