package dev.nacre.consensus.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RaftConfigTest {
  private RaftConfig.Builder valid() {
    return RaftConfig.builder().selfId("a").peer("a", "127.0.0.1:7001").peer("b", "127.0.0.1:7002")
        .peer("c", "127.0.0.1:7003").storageDir(Path.of("data"));
  }

  @Test
  void defaultsAreNacosLike() {
    RaftConfig config = valid().build();
    assertThat(config.requestTimeout()).isEqualTo(Duration.ofSeconds(3));
    assertThat(config.selfPort()).isEqualTo(7001);
    assertThat(config.quorumSize()).isEqualTo(2);
    assertThat(config.storageDir().isAbsolute()).isTrue();
  }

  @Test
  void rejectsSelfNotAmongPeers() {
    assertThatThrownBy(() -> valid().selfId("z").build()).hasMessageContaining("not among the peers");
  }

  @Test
  void rejectsBadAddressAndTimeouts() {
    assertThatThrownBy(() -> valid().peer("d", "nohost").build()).hasMessageContaining("host:port");
    assertThatThrownBy(() -> valid().electionTimeout(Duration.ofMillis(500), Duration.ofMillis(400)).build())
        .hasMessageContaining("election timeouts");
    assertThatThrownBy(() -> valid().requestTimeout(Duration.ofMillis(700)).build())
        .hasMessageContaining("requestTimeout");
  }

  @Test
  void anIpv6PeerIsReadWithItsBrackets() {
    RaftConfig config = RaftConfig.builder().selfId("a").peer("a", "[::1]:7001").storageDir(Path.of("data")).build();
    assertThat(config.selfHost()).isEqualTo("::1");
    assertThat(config.selfPort()).isEqualTo(7001);
    assertThatThrownBy(() -> valid().peer("d", "127.0.0.1:").build()).hasMessageContaining("host:port");
    assertThatThrownBy(() -> valid().peer("d", ":7004").build()).hasMessageContaining("host:port");
  }

  @Test
  void clusterSecretIsOptionalCheckedAndNeverPrinted() {
    assertThat(valid().build().authenticated()).isFalse();
    assertThat(valid().clusterSecret("   ").build().clusterSecret()).as("blank means none").isNull();
    assertThatThrownBy(() -> valid().clusterSecret("short").build()).hasMessageContaining("at least 16");

    RaftConfig config = valid().clusterSecret("s3cr3t-value-of-enough-length").build();
    assertThat(config.authenticated()).isTrue();
    assertThat(config.selfHost()).isEqualTo("127.0.0.1");
    assertThat(config.toString()).doesNotContain("s3cr3t").contains("mutual TLS");
  }
}
