package dev.nacre.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nacre.node.testkit.Http;
import java.math.BigInteger;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The config HTTP API on a 3-node cluster: a publish on one member is read on the others, and a
 * long poll held on a third member answers as soon as that member applies the change.
 */
@Timeout(120)
class ConfigHttpClusterTest {
  private static final String CONFIGS = "/nacos/v1/cs/configs";
  @TempDir Path dir;

  @Test
  void aPollHeldOnOneMemberHearsAPublishOnAnother() throws Exception {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of())) {
      await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> c.leader() >= 0);
      Map<String, String> one = Map.of("dataId", "cluster.id", "group", "G", "tenant", "ns", "content", "one");
      await().atMost(Duration.ofSeconds(20)).until(() -> c.http(0).postForm(CONFIGS, one).status() == 200);
      for (int i = 0; i < 3; i++) {
        Http http = c.http(i);
        await().atMost(Duration.ofSeconds(20)).until(() -> "one".equals(
            http.get(CONFIGS, Map.of("dataId", "cluster.id", "group", "G", "tenant", "ns")).body()));
      }

      String listening = "cluster.id\u0002G\u0002" + md5("one") + "\u0002ns\u0001";
      CompletableFuture<HttpResponse<String>> held = HttpClient.newHttpClient().sendAsync(
          HttpRequest.newBuilder(URI.create("http://" + c.address(2) + "/nacos/v1/cs/configs/listener"))
              .timeout(Duration.ofSeconds(40))
              .header("Long-Pulling-Timeout", "30000")
              .header("Content-Type", "application/x-www-form-urlencoded")
              .POST(HttpRequest.BodyPublishers.ofString(
                  "Listening-Configs=" + URLEncoder.encode(listening, StandardCharsets.UTF_8)))
              .build(),
          HttpResponse.BodyHandlers.ofString());
      await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> !held.isDone());

      assertThat(c.http(1).postForm(CONFIGS, Map.of("dataId", "cluster.id", "group", "G", "tenant", "ns",
          "content", "two")).status()).isEqualTo(200);
      HttpResponse<String> answer = held.get(10, TimeUnit.SECONDS);
      assertThat(answer.statusCode()).isEqualTo(200);
      assertThat(URLDecoder.decode(answer.body(), StandardCharsets.UTF_8)).isEqualTo("cluster.id\u0002G\u0002ns\u0001");
      assertThat(c.http(2).get("/nacos/v2/cs/config", Map.of("dataId", "cluster.id", "group", "G",
          "namespaceId", "ns")).body()).contains("\"data\":\"two\"");
    }
  }

  private static String md5(String content) throws Exception {
    byte[] d = MessageDigest.getInstance("MD5").digest(content.getBytes(StandardCharsets.UTF_8));
    return String.format("%032x", new BigInteger(1, d));
  }
}
