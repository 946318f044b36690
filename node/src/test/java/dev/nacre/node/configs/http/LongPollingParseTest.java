package dev.nacre.node.configs.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.config.api.ConfigKey;
import dev.nacre.node.configs.http.LongPolling.Probe;
import dev.nacre.node.http.HttpError;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** How {@code Listening-Configs} is read, as nacos-client 1.x writes it. */
@Timeout(10)
class LongPollingParseTest {
  @Test
  void readsConfigsWithAndWithoutTenant() {
    Map<ConfigKey, Probe> probes = LongPolling.parse("a\u0002G\u0002md5a\u0001b\u0002G\u0002\u0002dev\u0001");
    assertThat(probes).containsEntry(new ConfigKey("", "G", "a"), new Probe("md5a", ""))
        .containsEntry(new ConfigKey("dev", "G", "b"), new Probe("", "dev"));
  }

  @Test
  void theLastSeparatorMayBeMissing() {
    assertThat(LongPolling.parse("a\u0002G\u0002m")).containsOnlyKeys(new ConfigKey("", "G", "a"));
  }

  @Test
  void refusesMalformedInput() {
    assertThatThrownBy(() -> LongPolling.parse("")).isInstanceOf(HttpError.class);
    assertThatThrownBy(() -> LongPolling.parse("\u0001\u0001")).isInstanceOf(HttpError.class);
    assertThatThrownBy(() -> LongPolling.parse("a\u0002G\u0001")).isInstanceOf(HttpError.class)
        .hasMessageContaining("2 fields");
    assertThatThrownBy(() -> LongPolling.parse("a b\u0002G\u0002m\u0001")).isInstanceOf(HttpError.class)
        .hasMessageContaining("invalid dataId");
    assertThatThrownBy(() -> LongPolling.parse("a\u0002G\u0002m\u0002t\u0002x\u0001")).isInstanceOf(HttpError.class);
  }
}
