package dev.nacre.node;

import static dev.nacre.node.TestNode.NS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nacre.node.testkit.Http;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code /instance/list?udpPort=} over real HTTP, with a raw UDP socket in the client's place. */
@Timeout(60)
@ExtendWith(TestNodePerClass.class)
class UdpListApiTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  static TestNode node;

  private static Http.Response list(String service, String... more) {
    Map<String, String> params = new java.util.HashMap<>(Map.of("serviceName", service));
    for (int i = 0; i < more.length; i += 2) {
      params.put(more[i], more[i + 1]);
    }
    return node.http.get(NS + "/instance/list", params);
  }

  /** The next push, acknowledged the way the 1.x client does; its data parsed. */
  private static JsonNode receiveAndAck(DatagramSocket socket) throws IOException {
    DatagramPacket packet = new DatagramPacket(new byte[65_536], 65_536);
    socket.receive(packet);
    JsonNode push = MAPPER.readTree(new String(packet.getData(), 0, packet.getLength(), StandardCharsets.UTF_8));
    byte[] ack = ("{\"type\": \"push-ack\", \"lastRefTime\":\"" + push.get("lastRefTime").asLong() + "\", \"data\":\"\"}")
        .getBytes(StandardCharsets.UTF_8);
    socket.send(new DatagramPacket(ack, ack.length, packet.getSocketAddress()));
    assertThat(push.get("type").asText()).isEqualTo("dom");
    return MAPPER.readTree(push.get("data").asText());
  }

  @Test
  void aListWithUdpPortSubscribesThatSocketAndGarbageDoesNotBreakIt() throws Exception {
    try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      socket.setSoTimeout(5_000);
      Http.Response r = list("udp-sub", "udpPort", String.valueOf(socket.getLocalPort()), "clientIP", "127.0.0.1",
          "clusters", "z,a", "app", "test-app");
      assertThat(r.status()).as(r.body()).isEqualTo(200);
      assertThat(TestNode.json(r).get("clusters").asText()).as("echoed as sent").isEqualTo("z,a");
      JsonNode first = receiveAndAck(socket);
      assertThat(first.get("name").asText()).isEqualTo("DEFAULT_GROUP@@udp-sub");
      assertThat(first.get("clusters").asText()).isEqualTo("z,a");
      assertThat(first.get("hosts")).isEmpty();

      // Garbage at the node's UDP port first: it must go on working.
      InetSocketAddress nodeUdp = node.node().udp().channel().localAddress();
      for (String g : new String[] {"", "garbage", "{\"type\":\"push-ack\",\"lastRefTime\":\"-5\"}", "\u0000\u0001"}) {
        byte[] bytes = g.getBytes(StandardCharsets.UTF_8);
        socket.send(new DatagramPacket(bytes, bytes.length, nodeUdp));
      }
      await().atMost(Duration.ofSeconds(5)).until(() -> node.node().udp().channel().ignoredDatagrams() >= 4);

      assertThat(node.http.post(NS + "/instance", Map.of("serviceName", "udp-sub", "ip", "127.0.0.1", "port", "7001",
          "clusterName", "a")).status()).isEqualTo(200);
      JsonNode pushed = receiveAndAck(socket);
      assertThat(pushed.get("hosts")).hasSize(1);
      assertThat(pushed.get("hosts").get(0).get("port").asInt()).isEqualTo(7001);

      // Another cluster's change leaves this subscriber's list alone: no push.
      node.http.post(NS + "/instance", Map.of("serviceName", "udp-sub", "ip", "127.0.0.1", "port", "7002",
          "clusterName", "b"));
      socket.setSoTimeout(1_000);
      try {
        socket.receive(new DatagramPacket(new byte[65_536], 65_536));
        throw new AssertionError("pushed a list that did not change");
      } catch (SocketTimeoutException expected) {
        // nothing came
      }
    }
  }

  /** Issue 11: clientIP cannot aim pushes at another host; they go where the request came from. */
  @Test
  void aPushGoesToTheAddressTheListCameFromNotToClientIp() throws Exception {
    try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      socket.setSoTimeout(5_000);
      Http.Response r = list("udp-elsewhere", "udpPort", String.valueOf(socket.getLocalPort()), "clientIP", "127.0.0.2");
      assertThat(r.status()).as(r.body()).isEqualTo(200);
      assertThat(receiveAndAck(socket).get("name").asText()).isEqualTo("DEFAULT_GROUP@@udp-elsewhere");
    }
  }

  @Test
  void badUdpParametersAreRefusedAndAMissingClientIpOnlyLists() {
    Http.Response port = list("udp-bad", "udpPort", "70000", "clientIP", "127.0.0.1");
    assertThat(port.status()).isEqualTo(400);
    assertThat(port.body()).contains("udpPort");
    assertThat(list("udp-bad", "udpPort", "abc", "clientIP", "127.0.0.1").status()).isEqualTo(400);
    Http.Response ip = list("udp-bad", "udpPort", "5000", "clientIP", "some.host.example");
    assertThat(ip.status()).isEqualTo(400);
    assertThat(ip.body()).contains("clientIP");
    assertThat(list("udp-bad", "udpPort", "5000", "clientIP", "1:2:3").status()).isEqualTo(400);
    assertThat(list("udp-bad", "udpPort", "5000").status()).isEqualTo(200);
    assertThat(list("udp-bad", "udpPort", "0", "clientIP", "127.0.0.1").status()).isEqualTo(200);
    assertThat(node.node().subscriptions().subscribersOf(
        new dev.nacre.naming.model.ServiceKey("public", "DEFAULT_GROUP", "udp-bad"))).isEmpty();
  }
}
