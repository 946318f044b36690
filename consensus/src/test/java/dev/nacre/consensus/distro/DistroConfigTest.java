package dev.nacre.consensus.distro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class DistroConfigTest {

  @Test
  void defaultsAreNacosNumbers() {
    DistroConfig d = DistroConfig.defaults();
    assertThat(d.maxBatchSize()).isEqualTo(1000);
    assertThat(d.flushDelay()).isEqualTo(Duration.ofMillis(200));
    assertThat(d.verifyInterval()).isEqualTo(Duration.ofSeconds(5));
    assertThat(d.retryBackoffMax()).isEqualTo(Duration.ofSeconds(3));
    assertThat(DistroConfig.builder().build()).isEqualTo(d);
  }

  @Test
  void rejectsNonsenseWithAMessageThatNamesTheSetting() {
    assertThatThrownBy(() -> DistroConfig.builder().maxBatchSize(0).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxBatchSize");
    assertThatThrownBy(() -> DistroConfig.builder().flushDelay(Duration.ZERO).build())
        .hasMessageContaining("flushDelay");
    assertThatThrownBy(() -> DistroConfig.builder()
        .retryBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1)).build())
        .hasMessageContaining("retryBackoffMax");
    assertThatThrownBy(() -> DistroConfig.builder().maxPendingKeysPerPeer(10).build())
        .hasMessageContaining("maxPendingKeysPerPeer");
  }
}
