package dev.nacre.bench.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cluster as seen from outside, over each member's HTTP port: its process (from the folder of
 * {@code scripts/cluster.sh}, read again after a restart), the gauges it exports, and its stored
 * configurations page by page.
 */
final class Members {
  private static final Pattern INSTANCE_COUNT = Pattern.compile("\"instanceCount\"\\s*:\\s*(\\d+)");
  private static final ObjectMapper JSON = new ObjectMapper();
  private final List<String> nodes;
  private final Path clusterDir;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  Members(List<String> nodes, Path clusterDir) {
    this.nodes = List.copyOf(nodes);
    this.clusterDir = clusterDir;
  }

  List<String> nodes() {
    return nodes;
  }

  String node(int i) {
    return nodes.get(i);
  }

  /** The member processes now, in node order (node-I/pid of the cluster folder). */
  List<Long> pids() throws IOException {
    List<Long> pids = new ArrayList<>();
    for (int i = 1; i <= nodes.size(); i++) {
      pids.add(Long.parseLong(Files.readString(clusterDir.resolve("node-" + i).resolve("pid")).trim()));
    }
    return pids;
  }

  /** The sum of a Prometheus gauge's samples on {@code node} ({@code name} as exported); -1 when it does not answer. */
  long gauge(String node, String name) throws InterruptedException {
    try {
      String body = get(node, "/metrics");
      Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "(?:\\{[^}]*})? ([0-9.eE+-]+)$").matcher(body);
      double sum = 0;
      boolean found = false;
      while (m.find()) {
        sum += Double.parseDouble(m.group(1));
        found = true;
      }
      return found ? Math.round(sum) : -1;
    } catch (IOException e) {
      return -1;
    }
  }

  long configurations(String node) throws InterruptedException {
    return gauge(node, "nacre_config_configurations");
  }

  long listenedKeys(String node) throws InterruptedException {
    return gauge(node, "nacre_config_listeners");
  }

  /** The instance count a member reports in Nacos' operator metrics; -1 when it does not answer. */
  long instances(String node) throws InterruptedException {
    try {
      Matcher m = INSTANCE_COUNT.matcher(get(node, "/nacos/v1/ns/operator/metrics"));
      return m.find() ? Long.parseLong(m.group(1)) : -1;
    } catch (IOException e) {
      return -1;
    }
  }

  /** Each member's figure, in node order. */
  List<Long> each(ToLongFunctionWithInterrupt figure) throws InterruptedException {
    List<Long> out = new ArrayList<>();
    for (String node : nodes) {
      out.add(figure.apply(node));
    }
    return out;
  }

  interface ToLongFunctionWithInterrupt {
    long apply(String node) throws InterruptedException;
  }

  /**
   * Waits until {@code figure} of every member equals its expected value; fails after {@code limit}
   * naming what each member shows.
   */
  void await(String what, ToLongFunctionWithInterrupt figure, List<Long> expected, Duration limit) throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (true) {
      List<Long> now = each(figure);
      if (now.equals(expected)) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(what + ": members show " + now + ", expected " + expected + " after "
            + limit.toSeconds() + " s: acknowledged writes are missing, so this run's figures are void");
      }
      Thread.sleep(50); // polls a condition with a deadline
    }
  }

  /**
   * Every configuration of {@code group} (public namespace) that {@code node} serves, by dataId to
   * MD5, read in pages of 500 through the v1 search (which answers content and md5).
   */
  Map<String, String> md5s(String node, String group) throws IOException, InterruptedException {
    Map<String, String> out = new HashMap<>();
    for (int page = 1, pages = 1; page <= pages && page <= 10_000; page++) {
      String body = get(node, "/nacos/v1/cs/configs?search=accurate&dataId=&group="
          + URLEncoder.encode(group, StandardCharsets.UTF_8) + "&pageNo=" + page + "&pageSize=500");
      JsonNode json = JSON.readTree(body);
      pages = json.path("pagesAvailable").asInt(0);
      for (JsonNode item : json.path("pageItems")) {
        String content = item.path("content").asText("");
        // Both: the md5 the member states, and the md5 of what it actually sent.
        String stated = item.path("md5").asText("");
        out.put(item.path("dataId").asText(), stated.equals(Contents.md5(content)) ? stated : "inconsistent:" + stated);
      }
    }
    return out;
  }

  private String get(String node, String path) throws IOException, InterruptedException {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://" + node + path))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IOException("GET " + path + " on " + node + ": HTTP " + r.statusCode() + " " + r.body());
    }
    return r.body();
  }
}
