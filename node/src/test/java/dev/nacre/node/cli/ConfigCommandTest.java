package dev.nacre.node.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code nacre config} against a scripted HTTP server that answers as Nacos' v1 configuration API
 * does and records what it was asked: the requests the commands send, the tables they print and
 * their errors. {@code ConfigCliTest} runs the same commands against a real node.
 */
@Timeout(30)
class ConfigCommandTest {
  /** One request as the server saw it: its params from the query and the form body, decoded. */
  record Request(String method, String path, Map<String, String> query, Map<String, String> form) {}

  /** One scripted answer. */
  record Answer(int status, String body) {}

  private HttpServer server;
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  /** "METHOD path" to the answer; anything else gets a 404. */
  private final Map<String, Answer> answers = new LinkedHashMap<>();

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      String path = exchange.getRequestURI().getPath();
      requests.add(new Request(exchange.getRequestMethod(), path, params(exchange.getRequestURI().getRawQuery()),
          params(body)));
      Answer a = answers.getOrDefault(exchange.getRequestMethod() + " " + path, new Answer(404, "config data not exist"));
      byte[] bytes = a.body().getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(a.status(), bytes.length == 0 ? -1 : bytes.length);
      exchange.getResponseBody().write(bytes);
      exchange.close();
    });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private static Map<String, String> params(String raw) {
    Map<String, String> out = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      out.put(URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8),
          eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
    }
    return out;
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
    all[1] = "127.0.0.1:" + server.getAddress().getPort();
    System.arraycopy(args, 0, all, 2, args.length);
    return new Run(cli.execute(all), out.toString(), err.toString());
  }

  @Test
  void getPrintsTheContentAndAMissingOneIsNamedAsAsked() {
    answers.put("GET /nacos/v1/cs/configs", new Answer(200, "a: 1\nb: 2"));
    Run got = run("config", "get", "app.yaml", "--group", "G1", "--namespace", "dev");
    assertThat(got.exit()).as(got.err()).isZero();
    assertThat(got.out()).isEqualTo("a: 1\nb: 2\n");
    assertThat(requests.get(0).query()).containsEntry("dataId", "app.yaml").containsEntry("group", "G1")
        .containsEntry("tenant", "dev");

    answers.clear();
    Run missing = run("config", "get", "app.yaml");
    assertThat(missing.exit()).isEqualTo(1);
    assertThat(missing.err()).startsWith("nacre: no configuration app.yaml in group DEFAULT_GROUP of namespace public")
        .doesNotContain("Exception");
    assertThat(requests.get(1).query()).as("the public namespace is Nacos' empty tenant").doesNotContainKey("tenant");
  }

  @Test
  void putSendsTheContentInAFormBodyFromAFileOrTheCommandLine(@TempDir Path dir) throws IOException {
    answers.put("POST /nacos/v1/cs/configs", new Answer(200, "true"));
    Path file = dir.resolve("app.properties");
    String content = "url=jdbc:x?a=1&b=2\nname=é\n";
    Files.writeString(file, content, StandardCharsets.UTF_8);
    Run put = run("config", "put", "app.properties", "--file", file.toString(), "--type", "properties");
    assertThat(put.exit()).as(put.err()).isZero();
    assertThat(put.out()).contains("published app.properties in group DEFAULT_GROUP of namespace public");
    Request r = requests.get(0);
    assertThat(r.query()).as("nothing in the URL").isEmpty();
    assertThat(r.form()).containsEntry("dataId", "app.properties").containsEntry("group", "DEFAULT_GROUP")
        .containsEntry("content", content).containsEntry("type", "properties");

    assertThat(run("config", "put", "x", "--content", "k=v").exit()).isZero();
    assertThat(requests.get(1).form()).containsEntry("content", "k=v").containsEntry("type", "text");

    Run both = run("config", "put", "x", "--content", "k=v", "--file", file.toString());
    assertThat(both.exit()).as("one source only").isEqualTo(2);
    Run empty = run("config", "put", "x", "--content", " ");
    assertThat(empty.exit()).isEqualTo(2);
    assertThat(empty.err()).contains("the content is empty");
    assertThat(requests).hasSize(2);
  }

  @Test
  void deleteSaysWhenThereIsNothingToDelete() {
    Run missing = run("config", "delete", "gone");
    assertThat(missing.exit()).isEqualTo(1);
    assertThat(missing.err()).contains("no configuration gone in group DEFAULT_GROUP of namespace public");
    assertThat(requests).extracting(Request::method).containsExactly("GET");

    answers.put("GET /nacos/v1/cs/configs", new Answer(200, "k=v"));
    answers.put("DELETE /nacos/v1/cs/configs", new Answer(200, "true"));
    Run deleted = run("config", "delete", "there");
    assertThat(deleted.exit()).as(deleted.err()).isZero();
    assertThat(deleted.out()).isEqualTo("deleted there in group DEFAULT_GROUP of namespace public\n");
  }

  @Test
  void historyAndListenersAreTablesAndJsonIsTheNodesOwn() {
    String page = "{\"totalCount\":2,\"pageNumber\":1,\"pagesAvailable\":1,\"pageItems\":["
        + "{\"id\":12,\"dataId\":\"a\",\"group\":\"DEFAULT_GROUP\",\"tenant\":\"\",\"md5\":\"m2\",\"opType\":\"U         \","
        + "\"srcUser\":\"nacos\",\"srcIp\":\"10.0.0.9\",\"createdTime\":0,\"lastModifiedTime\":1000},"
        + "{\"id\":\"7\",\"dataId\":\"a\",\"group\":\"DEFAULT_GROUP\",\"tenant\":\"\",\"opType\":\"I\",\"md5\":null,"
        + "\"srcUser\":\"\",\"srcIp\":\"10.0.0.9\",\"createdTime\":0,\"lastModifiedTime\":\"2026-12-07 10:00:00\"}]}";
    answers.put("GET /nacos/v1/cs/history", new Answer(200, page));
    Run history = run("config", "history", "a");
    assertThat(history.exit()).as(history.err()).isZero();
    assertThat(history.out().lines()).hasSize(3);
    assertThat(history.out().lines().findFirst().orElseThrow()).matches("ID\\s+OP\\s+MD5\\s+USER\\s+IP\\s+TIME");
    assertThat(history.out()).containsPattern("12\\s+update\\s+m2\\s+nacos\\s+10.0.0.9\\s+1970-01-01T00:00:01Z")
        .containsPattern("7\\s+insert\\s+-\\s+-\\s+10.0.0.9\\s+2026-12-07 10:00:00");
    assertThat(requests.get(0).query()).containsEntry("search", "accurate").containsEntry("dataId", "a");
    assertThat(run("--json", "config", "history", "a").out()).contains("\"pagesAvailable\" : 1");

    answers.put("GET /nacos/v1/cs/configs/listener",
        new Answer(200, "{\"collectStatus\":200,\"lisentersGroupkeyStatus\":{\"10.0.0.5\":\"m2\"}}"));
    Run listeners = run("config", "listeners", "a");
    assertThat(listeners.exit()).as(listeners.err()).isZero();
    assertThat(listeners.out().lines()).hasSize(2).last().asString().matches("10.0.0.5\\s+m2");
    answers.put("GET /nacos/v1/cs/configs/listener",
        new Answer(200, "{\"collectStatus\":200,\"lisentersGroupkeyStatus\":{}}"));
    assertThat(run("config", "listeners", "a").out()).isEqualTo("no client listens to a in group DEFAULT_GROUP of"
        + " namespace public\n");
  }

  @Test
  void listSearchesWithTheParamsNacosRequires() {
    answers.put("GET /nacos/v1/cs/configs", new Answer(200, "{\"totalCount\":1,\"pageNumber\":1,\"pagesAvailable\":1,"
        + "\"pageItems\":[{\"id\":1,\"dataId\":\"orders.yaml\",\"group\":\"G\",\"content\":\"x\",\"md5\":\"m\","
        + "\"tenant\":\"\",\"appName\":\"\",\"type\":\"yaml\"}]}"));
    Run list = run("config", "list", "--search", "blur", "--data-id", "orders");
    assertThat(list.exit()).as(list.err()).isZero();
    assertThat(list.out().lines()).hasSize(2).last().asString().matches("orders.yaml\\s+G\\s+yaml\\s+m");
    assertThat(requests.get(0).query()).containsEntry("search", "blur").containsEntry("dataId", "*orders*")
        .as("required by Nacos, empty for any").containsEntry("group", "").containsEntry("tenant", "");

    assertThat(run("config", "list", "--search", "fuzzy").exit()).isEqualTo(2);
    assertThat(run("config").exit()).as("no subcommand: usage").isEqualTo(2);
  }
}
