package dev.nacre.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nacre.node.testkit.FreePorts;
import dev.nacre.node.testkit.Http;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 §4 as an operator does it: {@code scripts/cluster.sh add-node} and {@code remove-node}
 * on a cluster of real node processes that the script started (MembershipChangeTest covers the
 * same change in one JVM, under load).
 */
@Timeout(420)
class ClusterScriptMembershipTest {
  private static final Path SCRIPT = Path.of("..", "scripts", "cluster.sh").toAbsolutePath().normalize();

  @TempDir Path dir;

  private record Run(int exit, String out) {}

  /** Runs the script, bounded: the first start after a build also writes the class data archive. */
  private Run script(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(SCRIPT.toString()));
    command.addAll(List.of(args));
    command.addAll(List.of("--dir", dir.toString()));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    // Read to the end first: a full pipe would block the script.
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(180, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException(command + " did not finish in 180 s:\n" + out);
    }
    return new Run(p.exitValue(), out);
  }

  private static List<String> members(Http http) {
    Http.Response r = http.get("/nacre/v1/cluster/members", Map.of());
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    List<String> out = new ArrayList<>();
    LocalCluster.json(r).path("members").forEach(m -> out.add(m.asText()));
    return out;
  }

  @Test
  void addNodeAndRemoveNodeChangeTheMembersOfARunningCluster() throws Exception {
    assertThat(SCRIPT).exists();
    int base = FreePorts.basePort(4);
    String fourth = "127.0.0.1:" + (base + 30);
    Http first = new Http("http://127.0.0.1:" + base);
    try {
      Run start = script("start", "3", "--base-port", String.valueOf(base));
      assertThat(start.exit()).as(start.out()).isZero();
      assertThat(members(first)).hasSize(3);

      Run add = script("add-node");
      assertThat(add.exit()).as(add.out()).isZero();
      assertThat(add.out()).contains("node 4 (" + fourth + ") is a member");
      await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(members(first)).hasSize(4).contains(fourth));
      Http added = new Http("http://" + fourth);
      assertThat(members(added)).hasSize(4);
      Http.Response write = added.post("/nacos/v1/ns/instance", Map.of("serviceName", "scripted", "ip", "127.0.9.1",
          "port", "80", "ephemeral", "false"));
      assertThat(write.status()).as("a CP write through the new member: %s", write.body()).isEqualTo(200);

      Run remove = script("remove-node", "4");
      assertThat(remove.exit()).as(remove.out()).isZero();
      await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(members(first)).hasSize(3).doesNotContain(fourth));
      assertThat(Files.exists(dir.resolve("node-4").resolve("pid"))).as("node 4 was stopped").isFalse();
      Run again = script("start-node", "4");
      assertThat(again.exit()).as("a removed node is not started again: %s", again.out()).isNotZero();
      assertThat(again.out()).contains("was removed");
      assertThat(first.get("/nacos/v1/ns/instance/list", Map.of("serviceName", "scripted")).body())
          .as("the write through the removed member stays").contains("127.0.9.1");
    } finally {
      Run stop = script("stop");
      assertThat(stop.exit()).as(stop.out()).isZero();
    }
  }
}
