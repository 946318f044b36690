package dev.nacre.node;

import static dev.nacre.node.TestNode.NS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nacre.node.config.NodeConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The HTTP port's limits (issue 11 §3): one request in flight per connection, idle timeout, connection cap. */
@Timeout(60)
class HttpLimitsTest {
  private static final Pattern LENGTH = Pattern.compile("(?i)content-length: *(\\d+)");

  @TempDir Path dir;

  /** One HTTP/1.1 answer from a raw connection: status line, headers and body. */
  private static String readAnswer(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        return head.toString(StandardCharsets.ISO_8859_1);
      }
      head.write(b);
    }
    String headers = head.toString(StandardCharsets.ISO_8859_1);
    Matcher m = LENGTH.matcher(headers);
    int length = m.find() ? Integer.parseInt(m.group(1)) : 0;
    return headers + new String(in.readNBytes(length), StandardCharsets.ISO_8859_1);
  }

  private static String request(String method, String pathAndQuery) {
    return method + " " + pathAndQuery + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n";
  }

  /**
   * A persistent write (a Raft commit and a flush) pipelined before a read of the same service: the
   * read is answered second and sees the write. Run side by side, the read would finish first.
   */
  @Test
  void pipelinedRequestsAreAnsweredOneAtATimeInOrder() throws Exception {
    try (TestNode node = TestNode.start(dir); Socket s = new Socket("127.0.0.1", node.node().httpAddress().getPort())) {
      s.setSoTimeout(15_000);
      String pipelined = "";
      for (int i = 0; i < 5; i++) {
        pipelined += request("POST", NS + "/instance?serviceName=piped&ip=127.0.7." + (i + 1) + "&port=80&ephemeral=false")
            + request("GET", NS + "/instance/list?serviceName=piped");
      }
      OutputStream out = s.getOutputStream();
      out.write(pipelined.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = s.getInputStream();
      for (int i = 0; i < 5; i++) {
        String write = readAnswer(in);
        assertThat(write).as("answer %d", 2 * i).startsWith("HTTP/1.1 200").endsWith("ok");
        String list = readAnswer(in);
        assertThat(list).as("answer %d", 2 * i + 1).startsWith("HTTP/1.1 200").contains("\"hosts\"");
        for (int j = 0; j <= i; j++) {
          assertThat(list).as("list after write %d", i).contains("\"ip\":\"127.0.7." + (j + 1) + "\"");
        }
      }
    }
  }

  @Test
  void aConnectionIdleForTheTimeoutIsClosed() throws Exception {
    try (TestNode node = TestNode.start(dir, Map.of(NodeConfig.HTTP_IDLE_TIMEOUT, "300"));
        Socket s = new Socket("127.0.0.1", node.node().httpAddress().getPort())) {
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write(request("GET", NS + "/instance/list?serviceName=idle").getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      assertThat(readAnswer(s.getInputStream())).startsWith("HTTP/1.1 200");
      long start = System.nanoTime();
      int next;
      try {
        next = s.getInputStream().read();
      } catch (SocketTimeoutException e) {
        throw new AssertionError("the idle connection was still open after 10 s", e);
      }
      long waitedMs = (System.nanoTime() - start) / 1_000_000;
      assertThat(next).as("end of stream").isEqualTo(-1);
      assertThat(waitedMs).isBetween(200L, 5_000L);
    }
  }

  @Test
  void aConnectionOverTheCapIsAnswered503AndTheCapFreesWhenOneCloses() throws Exception {
    thirdConnectionIsRefusedUntilOneCloses(NodeConfig.HTTP_MAX_CONNECTIONS, "caused: too many connections to server");
  }

  @Test
  void aConnectionOverTheCapOfItsIpIsAnswered503() throws Exception {
    thirdConnectionIsRefusedUntilOneCloses(NodeConfig.HTTP_MAX_CONNECTIONS_PER_IP,
        "caused: too many connections from 127.0.0.1");
  }

  /** With {@code setting} at 2: two connections are served, a third is answered 503 naming it. */
  private void thirdConnectionIsRefusedUntilOneCloses(String setting, String cause) throws Exception {
    try (TestNode node = TestNode.start(dir, Map.of(setting, "2"))) {
      int port = node.node().httpAddress().getPort();
      try (Socket a = new Socket("127.0.0.1", port); Socket b = new Socket("127.0.0.1", port)) {
        for (Socket s : new Socket[] {a, b}) {
          s.setSoTimeout(15_000);
          s.getOutputStream().write(request("GET", NS + "/instance/list?serviceName=cap").getBytes(StandardCharsets.ISO_8859_1));
          assertThat(readAnswer(s.getInputStream())).startsWith("HTTP/1.1 200");
        }
        try (Socket c = new Socket("127.0.0.1", port)) {
          c.setSoTimeout(15_000);
          assertThat(readAnswer(c.getInputStream())).startsWith("HTTP/1.1 503").contains(cause).contains(setting);
        }
      }
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
          assertThat(node.http.get(NS + "/instance/list", Map.of("serviceName", "cap")).status()).isEqualTo(200));
    }
  }

  @Test
  void writesOfAnIpBeyondItsRateAre503ReadsAndBeatsAreNot() throws Exception {
    try (TestNode node = TestNode.start(dir, Map.of(NodeConfig.HTTP_WRITES_PER_SECOND_PER_IP, "5"))) {
      int refused = 0;
      long start = System.nanoTime();
      for (int i = 0; i < 30; i++) {
        var r = node.http.post(NS + "/instance", Map.of("serviceName", "rate", "ip", "127.0.7.1", "port", String.valueOf(1000 + i)));
        if (r.status() == 503) {
          refused++;
          assertThat(r.body()).contains("caused: over threshold").contains("nacre.http.writes-per-second-per-ip");
        } else {
          assertThat(r.status()).isEqualTo(200);
        }
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      assertThat(30 - refused).as("accepted at 5 a second in %.2f s", seconds)
          .isLessThanOrEqualTo(2 + (int) Math.ceil(5 * seconds));
      for (int i = 0; i < 10; i++) {
        assertThat(node.http.get(NS + "/instance/list", Map.of("serviceName", "rate")).status()).isEqualTo(200);
        assertThat(node.http.put(NS + "/instance/beat", Map.of("serviceName", "rate", "ip", "127.0.7.1", "port", "1000"))
            .status()).as("beats are not writes").isNotEqualTo(503);
      }
      await().atMost(Duration.ofSeconds(3)).untilAsserted(() -> assertThat(node.http.post(NS + "/instance",
          Map.of("serviceName", "rate", "ip", "127.0.7.2", "port", "1")).status()).isEqualTo(200));
    }
  }
}
