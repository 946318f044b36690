package dev.nacre.node.naming.udp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.model.ServiceView;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The UDP push socket against a raw receiver that answers as the Nacos 1.x client does, and against garbage. */
@Timeout(30)
class UdpPushChannelTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final ServiceKey SVC = new ServiceKey("public", "DEFAULT_GROUP", "svc");
  private final UdpPushChannel channel;
  private final DatagramSocket client;
  private final UdpPushTarget target;

  UdpPushChannelTest() throws IOException {
    channel = UdpPushChannel.open("test", new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    client = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    client.setSoTimeout(5_000);
    target = new UdpPushTarget("test", (InetSocketAddress) client.getLocalSocketAddress(), "c1", channel, MAPPER);
  }

  @AfterEach
  void close() {
    client.close();
    channel.close();
  }

  private static ServiceView view(int hosts, int metadataChars) {
    List<Instance> list = new ArrayList<>();
    for (int i = 0; i < hosts; i++) {
      list.add(new Instance(new InstanceKey(SVC, "c1", "127.0.0.1", 1000 + i), 2.5, true, true, true,
          Map.of("text", "x".repeat(metadataChars))));
    }
    return new ServiceView(SVC, "c1", list, false, 1234L, "sum");
  }

  /** Receives one push, unzips it if gzipped, and returns its JSON. */
  private JsonNode receive(DatagramPacket[] packetOut) throws IOException {
    DatagramPacket packet = new DatagramPacket(new byte[64 * 1024], 64 * 1024);
    client.receive(packet);
    packetOut[0] = packet;
    byte[] bytes = java.util.Arrays.copyOf(packet.getData(), packet.getLength());
    if (bytes.length > 2 && (bytes[0] & 0xff) == 0x1f && (bytes[1] & 0xff) == 0x8b) {
      try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
        bytes = in.readAllBytes();
      }
    }
    return MAPPER.readTree(bytes);
  }

  private void answer(DatagramPacket push, String text) throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    client.send(new DatagramPacket(bytes, bytes.length, push.getSocketAddress()));
  }

  @Test
  void aPushCarriesTheV1ListAndCompletesOnTheClientsAck() throws Exception {
    CompletableFuture<Void> acked = target.push(view(2, 3));
    DatagramPacket[] packet = new DatagramPacket[1];
    JsonNode push = receive(packet);
    assertThat(packet[0].getLength()).as("small pushes are not gzipped").isLessThan(UdpPushTarget.GZIP_ABOVE + 1);
    assertThat(push.get("type").asText()).isEqualTo("dom");
    JsonNode data = MAPPER.readTree(push.get("data").asText());
    assertThat(data.get("name").asText()).isEqualTo("DEFAULT_GROUP@@svc");
    assertThat(data.get("clusters").asText()).isEqualTo("c1");
    assertThat(data.get("lastRefTime").asLong()).isEqualTo(1234L);
    assertThat(data.get("hosts")).hasSize(2);
    assertThat(data.get("hosts").get(0).get("weight").asDouble()).isEqualTo(2.5);
    assertThat(data.get("hosts").get(0).get("clusterName").asText()).isEqualTo("c1");
    assertThat(acked).isNotDone();

    answer(packet[0], "{\"type\": \"push-ack\", \"lastRefTime\":\"" + push.get("lastRefTime").asLong() + "\", \"data\":\"\"}");
    await().atMost(Duration.ofSeconds(5)).until(acked::isDone);
    assertThat(acked).isCompleted();
    assertThat(channel.ackedPushes()).isEqualTo(1);
  }

  @Test
  void largeListsAreGzipped() throws Exception {
    CompletableFuture<Void> acked = target.push(view(40, 100));
    DatagramPacket[] packet = new DatagramPacket[1];
    JsonNode push = receive(packet);
    assertThat(packet[0].getData()[0] & 0xff).isEqualTo(0x1f);
    assertThat(MAPPER.readTree(push.get("data").asText()).get("hosts")).hasSize(40);
    answer(packet[0], "{\"type\": \"push-ack\", \"lastRefTime\":\"" + push.get("lastRefTime").asLong() + "\", \"data\":\"\"}");
    await().atMost(Duration.ofSeconds(5)).until(acked::isDone);
  }

  @Test
  void garbageAndWrongAcksAreDroppedAndTheSocketKeepsWorking() throws Exception {
    CompletableFuture<Void> acked = target.push(view(1, 1));
    DatagramPacket[] packet = new DatagramPacket[1];
    long pushId = receive(packet).get("lastRefTime").asLong();
    List<String> garbage = List.of("", "not json", "[1,2]", "null", "{\"type\":\"push-ack\"}",
        "{\"type\":\"push-ack\",\"lastRefTime\":\"abc\"}", "{\"type\":\"push-ack\",\"lastRefTime\":\"" + (pushId + 99) + "\"}",
        "{\"lastRefTime\":{\"nested\":1}}", "{".repeat(10_000));
    for (String g : garbage) {
      answer(packet[0], g);
    }
    byte[] binary = new byte[60_000];
    new java.util.Random(7).nextBytes(binary);
    client.send(new DatagramPacket(binary, binary.length, packet[0].getSocketAddress()));
    // The right id from another address is not this client's ack.
    try (DatagramSocket stranger = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      byte[] spoof = ("{\"type\":\"push-ack\",\"lastRefTime\":\"" + pushId + "\"}").getBytes(StandardCharsets.UTF_8);
      stranger.send(new DatagramPacket(spoof, spoof.length, packet[0].getSocketAddress()));
    }
    long expectedIgnored = garbage.size() + 2;
    await().atMost(Duration.ofSeconds(5)).until(() -> channel.ignoredDatagrams() >= expectedIgnored);
    assertThat(acked).isNotDone();

    answer(packet[0], "{\"type\": \"push-ack\", \"lastRefTime\":\"" + pushId + "\", \"data\":\"\"}");
    await().atMost(Duration.ofSeconds(5)).until(acked::isDone);
    assertThat(acked).isCompleted();
  }

  @Test
  void aPushToAClosedChannelFails() {
    channel.close();
    CompletableFuture<Void> sent = target.push(view(1, 1));
    await().atMost(Duration.ofSeconds(5)).until(sent::isDone);
    assertThat(sent).isCompletedExceptionally();
  }
}
