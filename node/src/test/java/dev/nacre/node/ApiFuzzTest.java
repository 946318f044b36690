package dev.nacre.node;

import static dev.nacre.node.TestNode.NS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nacre.node.testkit.Http;
import dev.nacre.node.testkit.RawNacosClient;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.ratis.thirdparty.io.grpc.StatusRuntimeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded fuzzing of a real node's HTTP API (v1 and v2) and its Nacos 2.x client port: every
 * input gets an answer, never a server error (HTTP 500, or the client protocol's 500), never a
 * hang, and the node keeps serving afterwards. Bounded by {@code nacre.fuzz.inputs} (default 1500
 * per port) and {@code nacre.fuzz.seconds} (default 30 per port); {@code scripts/fuzz.sh
 * --minutes N} runs it long. {@code nacre.fuzz.seed} replays a run (printed with the counts).
 */
@Timeout(value = 2, unit = java.util.concurrent.TimeUnit.HOURS)
class ApiFuzzTest {
  private static final long SEED = Long.getLong("nacre.fuzz.seed", System.nanoTime());
  private static final int INPUTS = Integer.getInteger("nacre.fuzz.inputs", 1500);
  private static final Duration BOUND = Duration.ofSeconds(Long.getLong("nacre.fuzz.seconds", 30));
  private static final List<String> CLIENT_TYPES = List.of("InstanceRequest", "BatchInstanceRequest",
      "PersistentInstanceRequest", "ServiceQueryRequest", "SubscribeServiceRequest", "ServiceListRequest",
      "HealthCheckRequest", "ServerCheckRequest", "NotifySubscriberResponse", "ConnectionSetupRequest", "Nope");

  @TempDir Path dir;

  @Test
  void everyHttpInputIsAnsweredWithoutAServerError() {
    FuzzInputs in = new FuzzInputs(SEED);
    Map<Integer, Integer> statuses = new TreeMap<>();
    List<String> failures = new ArrayList<>();
    int sent = 0;
    try (TestNode node = TestNode.start(dir)) {
      long deadline = System.nanoTime() + BOUND.toNanos();
      for (; sent < INPUTS && System.nanoTime() < deadline; sent++) {
        String[] route = in.pick(FuzzInputs.HTTP_ROUTES).split(" ", 2);
        String query = Http.query(in.params());
        boolean inBody = !route[0].equals("GET") && in.nextInt(2) == 0;
        String input = route[0] + " " + route[1] + (inBody ? " body " : "?") + abbreviate(query);
        try {
          Http.Response r = node.http.send(route[0], route[1] + (inBody || query.isEmpty() ? "" : "?" + query),
              inBody ? query : null);
          statuses.merge(r.status(), 1, Integer::sum);
          if (r.status() >= 500 && r.status() != 503) {
            failures.add(input + " -> " + r.status() + " " + abbreviate(r.body()));
          }
        } catch (UncheckedIOException e) {
          failures.add(input + " -> no answer: " + e.getCause());
        }
      }
      System.out.printf("FUZZ http seed=%d inputs=%d statuses=%s failures=%d%n", SEED, sent, statuses, failures.size());
      assertThat(node.http.get("/nacos/v1/console/health/readiness", Map.of()).status()).isEqualTo(200);
      assertThat(node.http.post(NS + "/instance", Map.of("serviceName", "after-fuzz", "ip", "127.0.9.1",
          "port", "80")).status()).as("still taking writes").isEqualTo(200);
    }
    assertThat(failures).as("seed %d (replay with -Dnacre.fuzz.seed=%d)", SEED, SEED).isEmpty();
    assertThat(sent).isPositive();
  }

  @Test
  void everyClientProtocolInputIsAnsweredWithoutAServerError() {
    FuzzInputs in = new FuzzInputs(SEED + 1);
    Map<Integer, Integer> codes = new TreeMap<>();
    List<String> failures = new ArrayList<>();
    int sent = 0;
    try (TestNode node = TestNode.start(dir);
        RawNacosClient client = new RawNacosClient(node.node().config().clientGrpcPort())) {
      client.setUp();
      await().atMost(Duration.ofSeconds(10)).until(() -> client.call("HealthCheckRequest", "{}").resultCode() == 200);
      long deadline = System.nanoTime() + BOUND.toNanos();
      for (; sent < INPUTS && System.nanoTime() < deadline; sent++) {
        String type = in.nextInt(20) == 0 ? in.value() : in.pick(CLIENT_TYPES);
        String body = in.nextInt(10) == 0 ? in.value() : in.clientBody(type);
        String input = abbreviate(type) + " " + abbreviate(body);
        try {
          RawNacosClient.Reply reply = client.call(type, body);
          codes.merge(reply.errorCode(), 1, Integer::sum);
          if (reply.errorCode() == 500) {
            failures.add(input + " -> " + abbreviate(reply.body().toString()));
          }
        } catch (StatusRuntimeException e) {
          failures.add(input + " -> " + e.getStatus());
        }
      }
      System.out.printf("FUZZ client-grpc seed=%d inputs=%d errorCodes=%s failures=%d%n", SEED + 1, sent, codes,
          failures.size());
      assertThat(client.call("HealthCheckRequest", "{}").resultCode()).as("still serving").isEqualTo(200);
    }
    assertThat(failures).as("seed %d (replay with -Dnacre.fuzz.seed=%d)", SEED + 1, SEED).isEmpty();
    assertThat(sent).isPositive();
  }

  private static String abbreviate(String s) {
    return s.length() <= 300 ? s : s.substring(0, 300) + "...(" + s.length() + " chars)";
  }
}
