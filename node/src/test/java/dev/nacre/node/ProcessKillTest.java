package dev.nacre.node;

import dev.nacre.node.testkit.FreePorts;
import dev.nacre.node.testkit.Http;
import static dev.nacre.node.TestNode.NS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** kill -9 of a real node process: persistent data is back after a restart, ephemeral data is not. */
@Timeout(180)
class ProcessKillTest {
  @TempDir Path dir;

  private Process launch(int port) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd = List.of(
        java, "-Xmx256m",
        "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
        "-Dnacre.logs.dir=" + dir.resolve("logs"),
        "-cp", System.getProperty("java.class.path"),
        "dev.nacre.node.Main", "--port", String.valueOf(port), "--bind", "127.0.0.1",
        "--data-dir", dir.resolve("data").toString());
    return new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(new File(dir.toFile(), "node-" + System.nanoTime() + ".out")).start();
  }

  private static void awaitUp(Http http, Process p) {
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptions().until(() -> {
      assertThat(p.isAlive()).as("node process exited early").isTrue();
      return http.get("/nacos/v1/core/cluster/nodes", Map.of()).status() == 200
          && http.post(NS + "/instance", Map.of("serviceName", "probe", "ip", "127.4.9.9", "port", "1", "ephemeral", "false")).status() == 200;
    });
  }

  @Test
  void killNineKeepsPersistentData() throws Exception {
    int port = FreePorts.mainPort();
    Http http = new Http("http://127.0.0.1:" + port);
    Process first = launch(port);
    try {
      awaitUp(http, first);
      for (int i = 1; i <= 5; i++) {
        assertThat(http.post(NS + "/instance", Map.of("serviceName", "kill", "ip", "127.4.0." + i, "port", "80", "ephemeral", "false")).status()).isEqualTo(200);
      }
      assertThat(http.post(NS + "/instance", Map.of("serviceName", "kill", "ip", "127.4.1.1", "port", "80")).status()).isEqualTo(200);
    } finally {
      first.destroyForcibly().waitFor();
    }
    Process second = launch(port);
    try {
      awaitUp(http, second);
      var hosts = TestNode.json(http.get(NS + "/instance/list", Map.of("serviceName", "kill"))).get("hosts");
      assertThat(hosts).hasSize(5);
      hosts.forEach(h -> assertThat(h.get("ephemeral").asBoolean()).isFalse());
    } finally {
      second.destroyForcibly().waitFor();
    }
  }
}
