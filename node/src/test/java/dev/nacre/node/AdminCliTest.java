package dev.nacre.node;

import static dev.nacre.node.TestNode.NS;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nacre.node.cli.AdminCli;
import dev.nacre.node.testkit.Http;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/** {@code scripts/nacre} against a real node: tables, JSON, changes the API agrees with, clear errors. */
@Timeout(60)
@ExtendWith(TestNodePerClass.class)
class AdminCliTest {
  static TestNode node;
  static String server;

  @BeforeAll
  static void start() {
    server = "127.0.0.1:" + node.node().config().port();
    assertThat(node.http.post(NS + "/instance", Map.of("serviceName", "orders", "ip", "127.0.7.1", "port", "8080",
        "metadata", "{\"zone\":\"a\"}")).status()).isEqualTo(200);
    assertThat(node.http.post(NS + "/instance", Map.of("serviceName", "orders", "ip", "127.0.7.2", "port", "8080",
        "ephemeral", "false")).status()).isEqualTo(200);
  }

  private record Run(int exit, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = AdminCli.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }

  @Test
  void statusServicesAndInstancesAreTables() {
    Run status = run("--server", server, "status");
    assertThat(status.exit()).isZero();
    assertThat(status.out()).startsWith("MEMBER").contains(server).contains("UP").contains("LEADER");
    // The indexes are the node's own: the persistent registration of the set-up was applied.
    JsonNode raft = TestNode.json(node.http.get("/nacos/v1/core/cluster/nodes", Map.of()))
        .at("/data/0/extendInfo/raftMetaData");
    assertThat(raft.path("appliedIndex").asLong()).isPositive();
    List<String> lines = status.out().lines().toList();
    assertThat(column(lines, "COMMIT")).isEqualTo(raft.path("commitIndex").asText());
    assertThat(column(lines, "APPLIED")).isEqualTo(raft.path("appliedIndex").asText());
    assertThat(column(lines, "DISTRO-QUEUE")).as("a node has no queue to itself").isEqualTo("-");

    Run services = run("services", "--server", server);
    assertThat(services.exit()).isZero();
    assertThat(services.out().lines()).containsExactly("SERVICE", "orders");

    Run instances = run("--server", server, "instances", "orders");
    assertThat(instances.exit()).isZero();
    assertThat(instances.out().lines()).hasSize(3);
    assertThat(instances.out()).contains("127.0.7.1:8080").contains("ephemeral").contains("zone")
        .contains("127.0.7.2:8080").contains("persistent");
  }

  /** The first row's value in the column headed {@code header} (columns are padded to align). */
  private static String column(List<String> lines, String header) {
    int at = lines.get(0).indexOf(header);
    assertThat(at).as("column %s in %s", header, lines.get(0)).isNotNegative();
    return lines.get(1).substring(at).split("\\s+")[0];
  }

  @Test
  void jsonIsTheNodesOwn() {
    Run instances = run("--server", server, "--json", "instances", "orders");
    assertThat(instances.exit()).isZero();
    assertThat(TestNode.json(new Http.Response(200, instances.out()))).hasSize(2);
  }

  @Test
  void offlineAndOnlineChangeWhatTheApiReturns() {
    for (String ip : new String[] {"127.0.7.1", "127.0.7.2"}) { // an ephemeral and a persistent instance
      Run offline = run("--server", server, "offline", "orders", ip + ":8080");
      assertThat(offline.exit()).as(offline.err()).isZero();
      assertThat(offline.out()).contains("offline");
      assertThat(enabled(ip)).isFalse();

      Run online = run("--server", server, "online", "orders", ip + ":8080");
      assertThat(online.exit()).as(online.err()).isZero();
      assertThat(enabled(ip)).isTrue();
    }
  }

  /** Whether queries return the instance: {@code /instance/list} leaves out those taken offline. */
  private static boolean enabled(String ip) {
    boolean listed = false;
    for (var h : node.list("orders", Map.of("healthyOnly", "false")).path("hosts")) {
      listed |= h.path("ip").asText().equals(ip);
    }
    Run instances = run("--server", server, "instances", "orders");
    String row = instances.out().lines().filter(l -> l.startsWith(ip + ":")).findFirst()
        .orElseThrow(() -> new AssertionError("the CLI lost " + ip + ":\n" + instances.out()));
    assertThat(row).as("the CLI shows what queries get").contains(listed ? "true     true" : "true     false");
    return listed;
  }

  @Test
  void logLevelChangesAKnownLoggerAndRefusesAnUnknownOne() {
    Run ok = run("--server", server, "log-level", "dev.nacre.node", "DEBUG");
    assertThat(ok.exit()).as(ok.err()).isZero();
    assertThat(org.slf4j.LoggerFactory.getLogger("dev.nacre.node").isDebugEnabled()).isTrue();
    run("--server", server, "log-level", "dev.nacre.node", "INFO");

    Run unknown = run("--server", server, "log-level", "no.such.logger.anywhere", "DEBUG");
    assertThat(unknown.exit()).isEqualTo(1);
    assertThat(unknown.err()).contains("400");
  }

  @Test
  void snapshotIsWrittenOnRequestAndLeadershipGoesOnlyToAMember() throws Exception {
    long applied = node.node().raftStatus().appliedIndex();
    Run snapshot = run("--server", server, "--json", "snapshot");
    assertThat(snapshot.exit()).as(snapshot.err()).isZero();
    JsonNode body = new ObjectMapper().readTree(snapshot.out());
    assertThat(body.get("member").asText()).isEqualTo(server);
    assertThat(body.get("snapshotIndex").asLong()).isGreaterThanOrEqualTo(applied).isPositive();
    // The Raft snapshot meters show it (they said -1 before any snapshot; MetricsTest).
    String scrape = node.http.get("/metrics", Map.of()).body();
    assertThat(scrape).containsPattern("(?m)^nacre_raft_snapshot_index\\{[^}]*\\} " + body.get("snapshotIndex").asLong() + "\\.0$");
    java.util.regex.Matcher age = java.util.regex.Pattern.compile("(?m)^nacre_raft_snapshot_age_seconds\\{[^}]*\\} (\\S+)$")
        .matcher(scrape);
    assertThat(age.find()).as(scrape).isTrue();
    assertThat(Double.parseDouble(age.group(1))).as("written just now").isBetween(0.0, 60.0);
    assertThat(run("--server", server, "snapshot").out()).contains("SNAPSHOT-INDEX").contains(server);

    Run toSelf = run("--server", server, "leader", "transfer", server);
    assertThat(toSelf.exit()).as(toSelf.err()).isZero();
    assertThat(toSelf.out()).contains(server + " leads the Raft group");

    Run stranger = run("--server", server, "leader", "transfer", "127.0.0.1:1999");
    assertThat(stranger.exit()).isEqualTo(1);
    assertThat(stranger.err()).contains("400").contains("127.0.0.1:1999 is not a member of this cluster");
    assertThat(run("--server", server, "leader").exit()).as("no subcommand: usage").isEqualTo(2);
  }

  @Test
  void mistakesGetMessagesNotStackTraces() throws Exception {
    Run noService = run("--server", server, "instances", "no-such-service");
    assertThat(noService.exit()).isEqualTo(1);
    assertThat(noService.err()).contains("no-such-service");

    Run missing = run("--server", server, "offline", "orders", "127.0.7.9:1");
    assertThat(missing.exit()).isEqualTo(1);
    assertThat(missing.err()).contains("has no instance 127.0.7.9:1");

    int closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    Run unreachable = run("--server", "127.0.0.1:" + closed, "status");
    assertThat(unreachable.exit()).isEqualTo(2);
    assertThat(unreachable.err()).contains("cannot reach a Nacre node").doesNotContain("Exception");
  }
}
