package dev.nacre.node.configs.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nacre.node.config.AuthSettings;
import dev.nacre.node.configs.http.ConfigClient.Answer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Config APIs with client authentication on: reads and long polls need read access to the
 * namespace ({@code tenant} in v1, {@code namespaceId} in v2), publishes and deletes write access.
 */
@Timeout(60)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConfigAuthNodeTest {
  static final String V1 = ConfigV1Api.CONFIGS;
  private ConfigTestNode node;
  private ConfigClient client;
  private String admin;
  private String reader;

  @BeforeAll
  void start() throws Exception {
    node = ConfigTestNode.start(Map.of(AuthSettings.ENABLED, "true", AuthSettings.TOKEN_KEY,
        Base64.getEncoder().encodeToString(
            "a config test key of at least thirty-two bytes".getBytes(StandardCharsets.UTF_8))));
    client = node.client;
    await().atMost(Duration.ofSeconds(20)).until(
        () -> client.post("/nacos/v1/auth/users/admin", "password", "admin password").status() == 200);
    admin = login("nacos", "admin password");
    assertThat(client.post("/nacos/v1/auth/users", "username", "ann", "password", "ann password",
        "accessToken", admin).status()).isEqualTo(200);
    assertThat(client.post("/nacos/v1/auth/roles", "role", "dev-reader", "username", "ann",
        "accessToken", admin).status()).isEqualTo(200);
    assertThat(client.post("/nacos/v1/auth/permissions", "role", "dev-reader", "resource", "dev:*:*",
        "action", "r", "accessToken", admin).status()).isEqualTo(200);
    reader = login("ann", "ann password");
  }

  private String login(String user, String password) {
    Answer r = client.post("/nacos/v1/auth/login", "username", user, "password", password);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.json().path("accessToken").asText();
  }

  @AfterAll
  void stop() throws Exception {
    if (node != null) {
      node.close();
    }
  }

  @Test
  void readersReadTheirNamespaceAndOnlyWritersWrite() throws Exception {
    assertThat(client.get(V1, "dataId", "a", "group", "G", "tenant", "dev").status()).isEqualTo(403);
    assertThat(client.post(V1, "dataId", "a", "group", "G", "tenant", "dev", "content", "x",
        "accessToken", admin).status()).isEqualTo(200);
    await().atMost(Duration.ofSeconds(5)).until(() -> client.get(V1, "dataId", "a", "group", "G", "tenant", "dev",
        "accessToken", reader).status() == 200);
    assertThat(client.get(V1, "dataId", "a", "group", "G", "tenant", "dev", "accessToken", reader).body())
        .isEqualTo("x");
    assertThat(client.post(V1, "dataId", "a", "group", "G", "tenant", "dev", "content", "y",
        "accessToken", reader).status()).isEqualTo(403);
    assertThat(client.get(V1, "dataId", "a", "group", "G", "tenant", "prod", "accessToken", reader).status())
        .isEqualTo(403);
    assertThat(client.get(ConfigV2Api.CONFIG, "dataId", "a", "group", "G", "namespaceId", "dev",
        "accessToken", reader).status()).isEqualTo(200);
    assertThat(client.get(ConfigV2Api.CONFIG, "dataId", "a", "group", "G", "namespaceId", "prod",
        "accessToken", reader).status()).isEqualTo(403);
    Answer poll = client.send("POST", LongPolling.LISTENER + "?tenant=dev&accessToken=" + reader,
        ConfigClient.form(Map.of("Listening-Configs", ConfigClient.probe("a", "G", "stale", "dev"))),
        Map.of("Long-Pulling-Timeout", "30000"), Duration.ofSeconds(10));
    assertThat(poll.status()).as(poll.body()).isEqualTo(200);
    assertThat(poll.body()).isNotEmpty();
    assertThat(client.get(HistoryApi.V1, "search", "accurate", "dataId", "a", "group", "G", "tenant", "dev",
        "accessToken", reader).status()).isEqualTo(200);
  }
}
