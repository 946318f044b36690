package dev.nacre.node.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.node.config.MemberAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(10)
class NodeConfigTest {
  private static Properties props(String... kv) {
    Properties p = new Properties();
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    return p;
  }

  @Test
  void defaultsAreNacos() {
    NodeConfig c = NodeConfig.from(props());
    assertThat(c.port()).isEqualTo(8848);
    assertThat(c.raftPort()).isEqualTo(7848);
    assertThat(c.members()).containsExactly(new MemberAddress("127.0.0.1", 8848));
    assertThat(c.clustered()).isFalse();
    assertThat(c.cpTimeout()).isEqualTo(Duration.ofSeconds(3));
    assertThat(c.naming().defaultHeartBeatTimeout()).isEqualTo(Duration.ofSeconds(15));
    assertThat(c.naming().defaultIpDeleteTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(c.cluster().distro().maxBatchSize()).isEqualTo(1000);
    assertThat(c.cluster().distro().flushDelay()).isEqualTo(Duration.ofMillis(200));
    assertThat(c.push().ackTimeout()).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void pushKeysAreRead() {
    NodeConfig c = NodeConfig.from(props(NodeConfig.PUSH_DELAY, "20", NodeConfig.PUSH_UDP_LEASE, "9000"));
    assertThat(c.push().mergeDelay()).isEqualTo(Duration.ofMillis(20));
    assertThat(c.push().udpLease()).isEqualTo(Duration.ofSeconds(9));
    assertThatThrownBy(() -> NodeConfig.from(props(NodeConfig.PUSH_RETRY, "5000", NodeConfig.PUSH_MAX_RETRY, "10")))
        .hasMessageContaining("maxRetryDelay");
  }

  @Test
  void distroLeadingEdgeFlushIsOnUnlessSwitchedOff() {
    assertThat(NodeConfig.from(props()).cluster().distro().leadingEdgeFlush()).isTrue();
    assertThat(NodeConfig.from(props(NodeConfig.DISTRO_LEADING_EDGE, "false")).cluster().distro()
        .leadingEdgeFlush()).isFalse();
    assertThatThrownBy(() -> NodeConfig.from(props(NodeConfig.DISTRO_LEADING_EDGE, "no")))
        .hasMessageContaining(NodeConfig.DISTRO_LEADING_EDGE);
  }

  @Test
  void typosAndBadValuesAreRefusedWithTheKey() {
    assertThatThrownBy(() -> NodeConfig.from(props("nacre.prot", "1"))).hasMessageContaining("nacre.prot");
    assertThatThrownBy(() -> NodeConfig.from(props(NodeConfig.PORT, "eighty"))).hasMessageContaining(NodeConfig.PORT);
    assertThatThrownBy(() -> NodeConfig.from(props(NodeConfig.PORT, "70000"))).hasMessageContaining(NodeConfig.PORT);
    assertThatThrownBy(() -> NodeConfig.from(props(NodeConfig.MEMBERS, "127.0.0.1:8848,nohostport"))).hasMessageContaining("host:port");
  }

  @Test
  void certificateFilesComeAllThreeAndReadable(@TempDir Path dir) throws Exception {
    Path pem = Files.writeString(dir.resolve("x.pem"), "not checked here");
    assertThatThrownBy(() -> NodeConfig.from(props(NodeConfig.TLS_CERT, pem.toString())))
        .hasMessageContaining(NodeConfig.TLS_KEY).hasMessageContaining("all three");
    assertThatThrownBy(() -> NodeConfig.from(props(NodeConfig.TLS_CERT, pem.toString(), NodeConfig.TLS_KEY,
        pem.toString(), NodeConfig.TLS_CA, dir.resolve("missing.pem").toString())))
        .hasMessageContaining(NodeConfig.TLS_CA).hasMessageContaining("missing.pem");
    NodeConfig c = NodeConfig.from(props(NodeConfig.TLS_CERT, pem.toString(), NodeConfig.TLS_KEY, pem.toString(),
        NodeConfig.TLS_CA, pem.toString()));
    assertThat(c.cluster().tlsFiles()).isPresent();
    assertThat(NodeConfig.from(props()).cluster().tlsFiles()).isEmpty();
  }

  @Test
  void aClusterNeedsASecretAndMustListThisNode() {
    assertThatThrownBy(() -> NodeConfig.from(props(NodeConfig.MEMBERS, "127.0.0.1:8848,127.0.0.1:8858")))
        .hasMessageContaining(NodeConfig.SECRET);
    assertThatThrownBy(() -> NodeConfig.from(props(NodeConfig.MEMBERS, "127.0.0.1:8858,127.0.0.1:8868", NodeConfig.SECRET, "0123456789abcdef")))
        .hasMessageContaining("does not list this node");
    NodeConfig c = NodeConfig.from(props(NodeConfig.MEMBERS, "127.0.0.1:8848 127.0.0.1:8858", NodeConfig.SECRET, "0123456789abcdef"));
    assertThat(c.clustered()).isTrue();
    assertThat(c.toString()).doesNotContain("0123456789abcdef");
  }
}
