package dev.nacre.cluster;

import static dev.nacre.cluster.LocalCluster.NS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A member cut off from its clients only: clients see a dead host, its peers a live member. */
@Timeout(90)
class ClientCutOffTest {
  @TempDir Path dir;

  @Test
  void aMemberCutOffFromClientsLooksDeadToThemButStillReplicates() {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of())) {
      c.isolateFromClients(0);
      long t0 = System.nanoTime();
      assertThatThrownBy(() -> c.http(0).get(NS + "/instance/list", Map.of("serviceName", "cut")))
          .isInstanceOf(UncheckedIOException.class);
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(3));

      Map<String, String> inst = Map.of("serviceName", "cut", "ip", "127.0.9.1", "port", "80");
      assertThat(c.http(1).post(NS + "/instance", inst).status()).isEqualTo(200);
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
          .until(() -> c.hostsInProcess(0, "cut").contains("127.0.9.1:80"));
      assertThat(c.node(1).cluster().orElseThrow().members().ownershipMembers()).contains(c.address(0));

      c.healClients(0);
      assertThat(c.hosts(0, "cut")).containsExactly("127.0.9.1:80");
    }
  }
}
