package dev.nacre.cluster;

import static dev.nacre.cluster.LocalCluster.NS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.node.Node;
import dev.nacre.node.NodeSeams;
import dev.nacre.node.config.NodeConfig;
import dev.nacre.node.http.HttpGate;
import dev.nacre.node.testkit.FreePorts;
import dev.nacre.node.testkit.Http;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The client-traffic gate on the HTTP Open API of a real node: pass, drop (reset), hold. */
@Timeout(60)
class ClientGateTest {
  @TempDir static Path dir;
  static Node node;
  static Http http;
  static String base;
  /** Decisions to hand out in order; PASS once empty. */
  static final ConcurrentLinkedDeque<HttpGate.Decision> script = new ConcurrentLinkedDeque<>();
  static final AtomicInteger asked = new AtomicInteger();

  @BeforeAll
  static void start() {
    Properties p = new Properties();
    p.setProperty(NodeConfig.PORT, String.valueOf(FreePorts.mainPort()));
    p.setProperty(NodeConfig.BIND, "127.0.0.1");
    p.setProperty(NodeConfig.DATA_DIR, dir.toString());
    p.setProperty("nacre.naming.probe.period-ms", "3600000");
    NodeConfig config = NodeConfig.from(p);
    ClientGate gate = self -> {
      assertThat(self).isEqualTo(config.address());
      asked.incrementAndGet();
      HttpGate.Decision d = script.poll();
      return d == null ? HttpGate.Decision.PASS : d;
    };
    node = Node.start(config, FaultSeams.withClientGate(NodeSeams.defaults(), config.address(), gate));
    base = "http://127.0.0.1:" + config.port();
    http = new Http(base);
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  @BeforeEach
  void clear() {
    script.clear();
  }

  private static Map<String, String> inst(String service) {
    return Map.of("serviceName", service, "ip", "127.0.0.1", "port", "9000");
  }

  private static int hosts(String service) {
    return LocalCluster.json(http.get(NS + "/instance/list", Map.of("serviceName", service))).get("hosts").size();
  }

  /** Sends one raw request on a fresh connection; returns what came back before the end. */
  private static byte[] rawExchange(String pathAndQuery) throws IOException {
    String port = base.substring(base.lastIndexOf(':') + 1);
    try (Socket s = new Socket("127.0.0.1", Integer.parseInt(port))) {
      s.setSoTimeout(10_000);
      s.getOutputStream().write(("POST " + pathAndQuery + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n")
          .getBytes(StandardCharsets.ISO_8859_1));
      s.getOutputStream().flush();
      InputStream in = s.getInputStream();
      return in.readNBytes(1);
    }
  }

  @Test
  void passServesAsUsual() {
    int before = asked.get();
    assertThat(http.post(NS + "/instance", inst("gate-pass")).status()).isEqualTo(200);
    // Once for the request, once for the answer.
    assertThat(asked.get() - before).isGreaterThanOrEqualTo(2);
  }

  @Test
  void droppedRequestResetsTheConnectionAndIsNotHandled() {
    script.add(HttpGate.Decision.RESET);
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> rawExchange(NS + "/instance?" + Http.query(inst("gate-drop"))))
        .isInstanceOf(java.net.SocketException.class)
        .hasMessageContaining("reset");
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(2));
    assertThat(hosts("gate-drop")).isZero();
  }

  @Test
  void droppedAnswerLosesOnlyTheAnswer() {
    script.add(HttpGate.Decision.PASS);
    script.add(HttpGate.Decision.RESET);
    assertThatThrownBy(() -> rawExchange(NS + "/instance?" + Http.query(inst("gate-drop-answer"))))
        .isInstanceOf(java.net.SocketException.class);
    // The write happened: a client that lost the answer cannot know, exactly as on a real network.
    assertThat(hosts("gate-drop-answer")).isEqualTo(1);
  }

  @Test
  void heldRequestIsHandledAfterTheHold() {
    script.add(HttpGate.Decision.hold(Duration.ofMillis(700)));
    long t0 = System.nanoTime();
    Http.Response r = http.post(NS + "/instance", inst("gate-hold"));
    Duration took = Duration.ofNanos(System.nanoTime() - t0);
    assertThat(r.status()).isEqualTo(200);
    assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(700)).isLessThan(Duration.ofSeconds(5));
    assertThat(hosts("gate-hold")).isEqualTo(1);
  }

  @Test
  void heldAnswerArrivesAfterTheHoldWhileTheWriteIsAlreadyVisible() throws Exception {
    script.add(HttpGate.Decision.PASS);
    script.add(HttpGate.Decision.hold(Duration.ofMillis(1500)));
    long t0 = System.nanoTime();
    var answer = java.util.concurrent.CompletableFuture.supplyAsync(() -> http.post(NS + "/instance", inst("gate-hold-answer")));
    // Looked up in-process: an HTTP list would go through the gate and take the scripted hold.
    var service = new dev.nacre.naming.model.ServiceKey("public", "DEFAULT_GROUP", "gate-hold-answer");
    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
        .until(() -> node.naming().allInstances(service).size() == 1);
    assertThat(answer).isNotDone();
    assertThat(answer.get(10, java.util.concurrent.TimeUnit.SECONDS).status()).isEqualTo(200);
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThanOrEqualTo(Duration.ofMillis(1500));
  }

  @Test
  void decisionRejectsInconsistentHolds() {
    assertThat(HttpGate.Decision.hold(Duration.ZERO)).isEqualTo(HttpGate.Decision.PASS);
    assertThatThrownBy(() -> new HttpGate.Decision(HttpGate.Action.HOLD, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new HttpGate.Decision(HttpGate.Action.RESET, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
