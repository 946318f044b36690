package dev.nacre.testkit.process;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
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
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A Nacre cluster of real node processes on 127.0.0.1, each a child JVM started from the node jar
 * that the reactor built ({@code node/target/nacre-node.jar} with its {@code lib/}), as
 * {@code scripts/cluster.sh} starts them. Child processes rather than nodes in the test's JVM
 * because the node's Netty, Jackson, Logback and Micrometer versions differ from the ones an
 * application brings (Spring Boot, Dubbo), and the application test modules' class paths must be
 * an ordinary application's. Those modules (spring-tests, dubbo-tests) share it from here.
 */
public final class NacreProcessCluster implements AutoCloseable {
  public static final String NS = "/nacos/v1/ns";
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Duration START_BOUND = Duration.ofSeconds(90);
  private static final Duration STOP_BOUND = Duration.ofSeconds(20);
  private static final int LOG_TAIL_LINES = 30;

  private final Path root;
  private final List<Integer> ports;
  private final List<Process> processes = new CopyOnWriteArrayList<>(); // read by the exit hook too
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final Thread killOnExit = new Thread(this::destroyAll, "nacre-cluster-kill-on-exit");

  private NacreProcessCluster(Path root, int size) {
    this.root = root;
    this.ports = LoopbackPorts.forNodes(size);
  }

  /**
   * Starts {@code size} nodes together and returns once every node is ready, sees every member
   * UP and knows the Raft leader (services are created through Raft).
   */
  public static NacreProcessCluster start(Path root, int size) {
    NacreProcessCluster cluster = new NacreProcessCluster(root, size);
    Runtime.getRuntime().addShutdownHook(cluster.killOnExit);
    try {
      Path jar = nodeJar();
      String secret = "spring-tests-" + UUID.randomUUID();
      for (int i = 0; i < size; i++) {
        cluster.processes.add(cluster.launch(i, jar, secret));
      }
      await("cluster of " + size + " settled").atMost(START_BOUND).pollInterval(Duration.ofMillis(100))
          .until(cluster::settled);
    } catch (RuntimeException | AssertionError e) {
      System.out.println(cluster.describe());
      cluster.close();
      throw e;
    }
    return cluster;
  }

  private static Path nodeJar() {
    String configured = System.getProperty("nacre.node.jar");
    if (configured == null) {
      throw new IllegalStateException("system property nacre.node.jar is not set (the test module's pom sets it for surefire)");
    }
    Path jar = Path.of(configured).toAbsolutePath().normalize();
    if (!Files.isRegularFile(jar) || !Files.isDirectory(jar.resolveSibling("lib"))) {
      throw new IllegalStateException(jar + " or the lib/ folder beside it is missing: build the node first, e.g. "
          + "mvn -B -o -pl spring-tests -am verify (a reactor build up to package or later)");
    }
    return jar;
  }

  private Process launch(int i, Path jar, String secret) {
    Path dir = root.resolve("node-" + i);
    try {
      Files.createDirectories(dir.resolve("tmp"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<String> command = List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m",
        // C1 only, on one compiler thread, as scripts/lib.sh: four JVMs share two cores here.
        "-XX:TieredStopAtLevel=1",
        "-XX:CICompilerCount=1",
        "-Djava.io.tmpdir=" + dir.resolve("tmp"),
        "-Dnacre.logs.dir=" + dir.resolve("logs"),
        "-jar", jar.toString(),
        "--port", String.valueOf(ports.get(i)),
        "--bind", "127.0.0.1",
        "--data-dir", dir.resolve("data").toString(),
        "--members", members(),
        // Nacos' defaults otherwise: pings, Distro, heartbeats, push as in production.
        "-Dnacre.cluster.secret=" + secret);
    try {
      return new ProcessBuilder(command)
          .directory(dir.toFile())
          .redirectErrorStream(true)
          .redirectOutput(dir.resolve("node.out").toFile())
          .start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start node " + i + ": " + command, e);
    }
  }

  private String members() {
    return ports.stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
  }

  /** The value for {@code spring.cloud.nacos.discovery.server-addr}: every member. */
  public String serverAddr() {
    return members();
  }

  /** {@code 127.0.0.1:P} of node i alone, for a client that should talk to that member only. */
  public String address(int i) {
    return "127.0.0.1:" + ports.get(i);
  }

  public int size() {
    return ports.size();
  }

  private boolean settled() {
    for (int i = 0; i < size(); i++) {
      if (!processes.get(i).isAlive()) {
        throw new IllegalStateException("node " + i + " exited with " + processes.get(i).exitValue() + "\n" + logTail(i));
      }
      HttpResponse<String> ready = get(i, "/nacos/v1/console/health/readiness");
      if (ready == null || ready.statusCode() != 200) {
        return false;
      }
      HttpResponse<String> nodes = get(i, "/nacos/v1/core/cluster/nodes");
      if (nodes == null || nodes.statusCode() != 200) {
        return false;
      }
      JsonNode members = json(nodes).path("data");
      int up = 0;
      boolean leaderKnown = false;
      for (JsonNode m : members) {
        up += "UP".equals(m.path("state").asText()) ? 1 : 0;
        String leader = m.path("extendInfo").path("raftMetaData").path("leader").asText("");
        leaderKnown |= !leader.isEmpty() && !leader.equals("none");
      }
      if (up != size() || !leaderKnown) {
        return false;
      }
    }
    return true;
  }

  /** {@code ip:port} of every instance node i lists for the service, sorted. */
  public List<String> hosts(int i, String service) {
    return instances(i, service).stream()
        .map(h -> h.path("ip").asText() + ":" + h.path("port").asInt())
        .sorted()
        .toList();
  }

  /** The {@code hosts} of node i's {@code /instance/list} for the service, as Nacre renders them. */
  public List<JsonNode> instances(int i, String service) {
    String path = NS + "/instance/list?serviceName=" + URLEncoder.encode(service, StandardCharsets.UTF_8);
    HttpResponse<String> r = get(i, path);
    if (r == null) {
      throw new AssertionError("node " + i + " did not answer GET " + path);
    }
    if (r.statusCode() != 200) {
      throw new AssertionError("node " + i + " answered " + r.statusCode() + " to GET " + path + ": " + r.body());
    }
    List<JsonNode> out = new ArrayList<>();
    json(r).path("hosts").forEach(out::add);
    return out;
  }

  /** Each node's status line and the end of its log, for failure messages. */
  public String describe() {
    StringBuilder b = new StringBuilder("Nacre cluster in ").append(root).append('\n');
    for (int i = 0; i < processes.size(); i++) {
      HttpResponse<String> status = processes.get(i).isAlive() ? get(i, "/nacre/v1/status") : null;
      b.append("node ").append(i).append(" 127.0.0.1:").append(ports.get(i)).append(": ")
          .append(processes.get(i).isAlive() ? (status == null ? "not answering" : status.body().strip()) : "exited")
          .append('\n').append(logTail(i));
    }
    return b.toString();
  }

  private String logTail(int i) {
    Path out = root.resolve("node-" + i).resolve("node.out");
    try {
      List<String> lines = Files.exists(out) ? Files.readAllLines(out) : List.of();
      List<String> tail = lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size());
      return tail.stream().map(l -> "    " + l + "\n").collect(Collectors.joining());
    } catch (IOException e) {
      return "    (cannot read " + out + ": " + e.getMessage() + ")\n";
    }
  }

  /** GET on node i, or null when the node does not answer (not up yet, or stopped). */
  public HttpResponse<String> get(int i, String pathAndQuery) {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ports.get(i) + pathAndQuery))
        .timeout(Duration.ofSeconds(5)).GET().build();
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while calling node " + i, e);
    }
  }

  public static JsonNode json(HttpResponse<String> r) {
    try {
      return MAPPER.readTree(r.body());
    } catch (IOException e) {
      throw new AssertionError("not JSON (status " + r.statusCode() + "): " + r.body(), e);
    }
  }

  /** Stops every node as {@code kill} does (each closes its servers and storage), then waits. */
  @Override
  public void close() {
    processes.forEach(Process::destroy);
    for (Process p : processes) {
      try {
        if (!p.waitFor(STOP_BOUND.toMillis(), TimeUnit.MILLISECONDS)) {
          p.destroyForcibly().waitFor(STOP_BOUND.toMillis(), TimeUnit.MILLISECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        p.destroyForcibly();
      }
    }
    try {
      Runtime.getRuntime().removeShutdownHook(killOnExit);
    } catch (IllegalStateException alreadyExiting) {
      // the hook is running or about to: it kills what is left
    }
  }

  /** Last resort when the test JVM exits without closing the cluster: no node outlives it. */
  private void destroyAll() {
    processes.forEach(Process::destroyForcibly);
  }
}
