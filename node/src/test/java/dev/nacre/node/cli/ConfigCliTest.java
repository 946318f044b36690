package dev.nacre.node.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.node.Node;
import dev.nacre.node.config.NodeConfig;
import dev.nacre.node.testkit.FreePorts;
import dev.nacre.node.testkit.Http;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code nacre config} against a real node: what it publishes the API returns, and the other way round. */
@Timeout(60)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConfigCliTest {
  private Node node;
  private String server;
  private Http http;

  @BeforeAll
  void start(@TempDir Path dir) {
    int port = FreePorts.mainPort();
    Properties p = new Properties();
    p.setProperty(NodeConfig.PORT, String.valueOf(port));
    p.setProperty(NodeConfig.BIND, "127.0.0.1");
    p.setProperty(NodeConfig.DATA_DIR, dir.resolve("node").toString());
    node = Node.start(NodeConfig.from(p));
    server = "127.0.0.1:" + port;
    http = new Http("http://" + server);
  }

  @AfterAll
  void stop() {
    if (node != null) {
      node.close();
    }
  }

  private record Run(int exit, String out, String err) {}

  private Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = AdminCli.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    String[] all = new String[args.length + 2];
    all[0] = "--server";
    all[1] = server;
    System.arraycopy(args, 0, all, 2, args.length);
    return new Run(cli.execute(all), out.toString(), err.toString());
  }

  @Test
  void listenersOfAConfigurationNobodyWatches() {
    assertThat(run("config", "put", "quiet.yaml", "--content", "a: 1").exit()).isZero();
    Run listeners = run("config", "listeners", "quiet.yaml");
    assertThat(listeners.exit()).as(listeners.err()).isZero();
    assertThat(listeners.out()).contains("no client listens to quiet.yaml in group DEFAULT_GROUP of namespace public");
  }

  @Test
  void putGetListHistoryAndDelete() {
    Run put = run("config", "put", "orders.yaml", "--content", "timeout: 1\n", "--type", "yaml", "--group", "APP");
    assertThat(put.exit()).as(put.err()).isZero();
    Http.Response read = http.get("/nacos/v1/cs/configs", Map.of("dataId", "orders.yaml", "group", "APP"));
    assertThat(read.status()).isEqualTo(200);
    assertThat(read.body()).isEqualTo("timeout: 1\n");
    assertThat(run("config", "put", "orders.yaml", "--content", "timeout: 2\n", "--group", "APP").exit()).isZero();
    assertThat(http.post("/nacos/v1/cs/configs", Map.of("dataId", "payments.yaml", "group", "APP",
        "content", "x: 1")).body()).isEqualTo("true");

    Run get = run("config", "get", "orders.yaml", "--group", "APP");
    assertThat(get.exit()).as(get.err()).isZero();
    assertThat(get.out()).isEqualTo("timeout: 2\n");

    Run list = run("config", "list", "--search", "blur", "--data-id", "rders");
    assertThat(list.exit()).as(list.err()).isZero();
    assertThat(list.out().lines()).hasSize(2);
    assertThat(list.out().lines().toList().get(1)).startsWith("orders.yaml").contains("APP");
    Run all = run("config", "list");
    assertThat(all.out().lines()).hasSize(3);

    Run history = run("config", "history", "orders.yaml", "--group", "APP");
    assertThat(history.exit()).as(history.err()).isZero();
    List<String> lines = history.out().lines().toList();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(1)).contains("update").contains("127.0.0.1");
    assertThat(lines.get(2)).contains("insert");

    Run delete = run("config", "delete", "orders.yaml", "--group", "APP");
    assertThat(delete.exit()).as(delete.err()).isZero();
    assertThat(http.get("/nacos/v1/cs/configs", Map.of("dataId", "orders.yaml", "group", "APP")).status())
        .isEqualTo(404);
    Run gone = run("config", "get", "orders.yaml", "--group", "APP");
    assertThat(gone.exit()).isEqualTo(1);
    assertThat(gone.err()).contains("no configuration orders.yaml in group APP of namespace public");
  }
}
