package dev.nacre.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.consensus.raft.RaftConfig;
import dev.nacre.node.config.NodeConfig;
import dev.nacre.node.http.HttpGate;
import dev.nacre.node.testkit.FreePorts;
import dev.nacre.node.testkit.Http;
import dev.nacre.node.testkit.RawNacosClient;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.ratis.thirdparty.io.grpc.Metadata;
import org.apache.ratis.thirdparty.io.grpc.ServerCall;
import org.apache.ratis.thirdparty.io.grpc.ServerCallHandler;
import org.apache.ratis.thirdparty.io.grpc.ServerInterceptor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What a starter puts into a node through {@link NodeSeams} reaches the node's parts. */
@Timeout(60)
class NodeSeamsTest {
  @TempDir static Path dir;
  static Node node;
  static NodeConfig config;
  static final List<String> timersFor = new CopyOnWriteArrayList<>();
  static final AtomicInteger raftAdjusted = new AtomicInteger();
  static final AtomicInteger clientCalls = new AtomicInteger();
  /** What the HTTP gate was asked, in order. */
  static final ConcurrentLinkedDeque<HttpGate.Stage> stages = new ConcurrentLinkedDeque<>();
  static final ConcurrentLinkedDeque<SocketAddress> clients = new ConcurrentLinkedDeque<>();
  /** Decisions to hand out in order; PASS once empty. */
  static final ConcurrentLinkedDeque<HttpGate.Decision> script = new ConcurrentLinkedDeque<>();

  @BeforeAll
  static void start() {
    Properties p = new Properties();
    p.setProperty(NodeConfig.PORT, String.valueOf(FreePorts.mainPort()));
    p.setProperty(NodeConfig.BIND, "127.0.0.1");
    p.setProperty(NodeConfig.DATA_DIR, dir.toString());
    p.setProperty("nacre.naming.probe.period-ms", "3600000");
    config = NodeConfig.from(p);
    ServerInterceptor counting = new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
          ServerCallHandler<Q, R> next) {
        clientCalls.incrementAndGet();
        return next.startCall(call, headers);
      }
    };
    NodeSeams seams = NodeSeams.defaults()
        .withTimers(name -> {
          timersFor.add(name);
          return NodeSeams.timerPool(name);
        })
        .withRaft(raft -> {
          raftAdjusted.incrementAndGet();
          return raft.handlerThreads(RaftConfig.HandlerThreads.POOL);
        })
        .withClientInterceptors(List.of(counting))
        .withHttpGate((stage, client) -> {
          stages.add(stage);
          clients.add(client);
          HttpGate.Decision d = script.poll();
          return d == null ? HttpGate.Decision.PASS : d;
        });
    node = Node.start(config, seams);
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  @Test
  void timersAndRaftSettingsComeFromTheSeams() {
    assertThat(timersFor).containsExactly(config.address());
    assertThat(raftAdjusted).hasValue(1);
    assertThat(node.raftStatus().role()).isEqualTo("LEADER");
  }

  @Test
  void theHttpGateIsAskedAboutTheRequestThenItsAnswer() {
    script.clear();
    stages.clear();
    clients.clear();
    Http http = new Http("http://127.0.0.1:" + config.port());
    assertThat(http.get("/nacos/v1/ns/instance/list", Map.of("serviceName", "seams")).status()).isEqualTo(200);
    assertThat(stages).containsExactly(HttpGate.Stage.REQUEST, HttpGate.Stage.ANSWER);
    assertThat(clients).allSatisfy(c ->
        assertThat(((InetSocketAddress) c).getAddress().isLoopbackAddress()).isTrue());
  }

  @Test
  void aResetRequestResetsTheConnection() {
    script.clear();
    script.add(HttpGate.Decision.RESET);
    assertThatThrownBy(() -> rawExchange("/nacos/v1/ns/instance/list?serviceName=seams"))
        .isInstanceOf(java.net.SocketException.class)
        .hasMessageContaining("reset");
  }

  @Test
  void clientInterceptorsSeeTheClientPortsCalls() {
    int before = clientCalls.get();
    try (RawNacosClient client = new RawNacosClient(config.clientGrpcPort())) {
      assertThat(client.call("ServerCheckRequest", "{\"headers\":{}}").resultCode()).isEqualTo(200);
    }
    assertThat(clientCalls.get()).isGreaterThan(before);
  }

  /** Sends one raw request on a fresh connection; returns what came back before the end. */
  private static byte[] rawExchange(String pathAndQuery) throws IOException {
    try (Socket s = new Socket("127.0.0.1", config.port())) {
      s.setSoTimeout(10_000);
      s.getOutputStream().write(("GET " + pathAndQuery + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
          .getBytes(StandardCharsets.ISO_8859_1));
      s.getOutputStream().flush();
      InputStream in = s.getInputStream();
      return in.readNBytes(1);
    }
  }
}
