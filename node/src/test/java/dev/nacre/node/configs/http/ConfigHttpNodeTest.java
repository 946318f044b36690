package dev.nacre.node.configs.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nacre.node.configs.http.ConfigClient.Answer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The config HTTP APIs of a real node: its config module through Raft, over real HTTP. */
class ConfigHttpNodeTest extends ConfigHttpContract {
  private ConfigTestNode node;
  private ConfigClient client;

  @BeforeAll
  void start() throws Exception {
    node = ConfigTestNode.start(Map.of());
    client = node.client;
    // Ready once a read is answered by config (404), not refused (503).
    awaitTrue(() -> client.get(V1, "dataId", "ready.probe", "group", "G").status() == 404);
  }

  @AfterAll
  void stop() throws Exception {
    if (node != null) {
      node.close();
    }
  }

  @Override
  ConfigClient client() {
    return client;
  }

  /** Held once the node's listener query (GET on the long poll's path) shows this client listening. */
  @Override
  void awaitHeld(CompletableFuture<Answer> held, String dataId, String tenant) {
    await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
      JsonNode listeners = client.get(LongPolling.LISTENER, "dataId", dataId, "group", "G", "tenant", tenant).json();
      assertThat(listeners.get("collectStatus").asInt()).isEqualTo(200);
      assertThat(listeners.get("lisentersGroupkeyStatus").has("127.0.0.1")).as(listeners.toString()).isTrue();
    });
    assertThat(held).isNotDone();
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
  void aLinearizableReadGoesThroughTheReadIndexAndABadConsistencyIsRefused() {
    assertThat(publish("lin.id", "v1").status()).isEqualTo(200);
    assertThat(client.get(V1, "dataId", "lin.id", "group", "G", "consistency", "linearizable").body()).isEqualTo("v1");
    assertThat(client.get("/nacos/v2/cs/config", "dataId", "lin.id", "group", "G", "consistency", "linearizable")
        .body()).contains("\"data\":\"v1\"");
    Answer bad = client.get(V1, "dataId", "lin.id", "group", "G", "consistency", "eventual");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.body()).contains("consistency");
  }

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
