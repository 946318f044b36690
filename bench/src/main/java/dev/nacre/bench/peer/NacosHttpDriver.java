package dev.nacre.bench.peer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Nacre through the Nacos HTTP v1 Open API, one java.net.http client (keep-alive HTTP/1.1) per
 * client: POST / DELETE {@code /nacos/v1/ns/instance}, GET {@code /nacos/v1/ns/instance/list}.
 * Ephemeral instances over HTTP live on beats; none are sent, as every series ends well within
 * the 15 s before an instance without beats turns unhealthy.
 */
public final class NacosHttpDriver implements RegistryDriver {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private final HttpClient http;
  private final String base;

  public NacosHttpDriver(String hostPort) {
    this.base = "http://" + hostPort + "/nacos/v1/ns";
    this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(2)).build();
  }

  @Override
  public void register(Instance instance) throws IOException, InterruptedException {
    expectOk("POST", "/instance?" + params(instance));
  }

  @Override
  public void deregister(Instance instance) throws IOException, InterruptedException {
    expectOk("DELETE", "/instance?" + params(instance));
  }

  @Override
  public Set<String> query(String service) throws IOException, InterruptedException {
    String body = expectOk("GET", "/instance/list?serviceName=" + enc(service));
    Set<String> addresses = new HashSet<>();
    for (JsonNode host : JSON.readTree(body).path("hosts")) {
      addresses.add(host.path("ip").asText() + ":" + host.path("port").asInt());
    }
    return addresses;
  }

  /**
   * Persistent services get the health checker NONE (as the CP figure of bench.sh does), so that
   * the nodes do not probe thousands of addresses nobody listens on during the series.
   */
  @Override
  public void prepare(Collection<String> services, boolean persistent) throws IOException, InterruptedException {
    if (!persistent) {
      return;
    }
    for (String service : services) {
      String q = "serviceName=" + enc(service);
      retry("creating service " + service, () -> {
        Reply created = send("POST", "/service?" + q);
        return created.status == 200 || created.body.contains("already") ? null : created;
      });
      retry("setting health checker NONE on " + service, () -> {
        Reply set = send("PUT", "/cluster?" + q + "&clusterName=DEFAULT&healthChecker=" + enc("{\"type\":\"NONE\"}"));
        return set.status == 200 ? null : set;
      });
    }
  }

  private interface Attempt {
    /** Null when done, else the reply that failed. */
    Reply run() throws IOException, InterruptedException;
  }

  /**
   * A set-up CP write may time out on a node that just started on a busy machine (Nacre answers
   * 503 and asks for an idempotent retry): retried for up to 30 s.
   */
  private static void retry(String what, Attempt attempt) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    Reply failed;
    while ((failed = attempt.run()) != null) {
      if (System.nanoTime() > deadline) {
        throw new IOException(what + " failed for 30 s, last answer: " + failed);
      }
      System.out.println("  " + what + ": " + failed.status + ", retrying");
      Thread.sleep(500); // give the Raft group time to settle before the next attempt
    }
  }

  private static String params(Instance i) {
    return "serviceName=" + enc(i.service()) + "&ip=" + i.ip() + "&port=" + i.port() + "&ephemeral=" + i.ephemeral();
  }

  private record Reply(int status, String body) {
  }

  private String expectOk(String method, String pathAndQuery) throws IOException, InterruptedException {
    Reply r = send(method, pathAndQuery);
    if (r.status != 200) {
      throw new IOException(method + " " + pathAndQuery + " answered " + r.status + ": " + r.body);
    }
    return r.body;
  }

  private Reply send(String method, String pathAndQuery) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(URI.create(base + pathAndQuery)).timeout(TIMEOUT)
        .method(method, HttpRequest.BodyPublishers.noBody()).build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    return new Reply(response.statusCode(), response.body());
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    // java.net.http.HttpClient has no close on Java 17; its pool goes with the JVM.
  }
}
