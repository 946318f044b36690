package dev.nacre.cluster;

import static dev.nacre.cluster.LocalCluster.NS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.node.config.NodeConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operator's weight and enabled on an ephemeral instance survive its client registering again
 * on another node after the node that owned it died (the client's redo), on every node; an
 * explicit deregistration ends them (Nacos loses them on the redo: its issues #10975, #11890).
 */
@Timeout(180)
class OperatorOverrideClusterTest {
  static final String SERVICE = "redo";
  static final String IP = "127.0.5.1";

  @TempDir Path dir;

  private static Map<String, String> inst(String... more) {
    Map<String, String> m = new HashMap<>(Map.of("serviceName", SERVICE, "ip", IP, "port", "80"));
    for (int i = 0; i < more.length; i += 2) {
      m.put(more[i], more[i + 1]);
    }
    return m;
  }

  /** The instance as node i shows it in its detail view (disabled instances included). */
  private static JsonNode detail(LocalCluster c, int i) {
    var r = c.http(i).get(NS + "/instance", inst());
    assertThat(r.status()).as("node %d: %s", i, r.body()).isEqualTo(200);
    return LocalCluster.json(r);
  }

  private static void awaitShown(LocalCluster c, List<Integer> nodes, double weight, boolean enabled) {
    for (int i : nodes) {
      await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
        JsonNode d = detail(c, i);
        assertThat(d.get("weight").asDouble()).as("weight on node %d\n%s", i, c.describe()).isEqualTo(weight);
        assertThat(d.get("enabled").asBoolean()).as("enabled on node %d", i).isEqualTo(enabled);
        assertThat(c.hosts(i, SERVICE)).as("listed on node %d", i).isEqualTo(enabled ? List.of(IP + ":80") : List.of());
      });
    }
  }

  @Test
  void operatorStateSurvivesTheRedoOnAnotherNodeUntilDeregistered() {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of(NodeConfig.DISTRO_GRACE, "1000"))) {
      int owner = c.indexOf(c.node(0).cluster().orElseThrow()
          .responsibleMember(new ServiceKey("public", "DEFAULT_GROUP", SERVICE)));
      int a = (owner + 1) % 3;
      int b = (owner + 2) % 3;
      List<Integer> all = List.of(0, 1, 2);
      List<Integer> survivors = List.of(a, b);

      assertThat(c.http(a).post(NS + "/instance", inst("weight", "1")).status()).isEqualTo(200);
      awaitShown(c, all, 1.0, true);

      var edit = c.http(b).put("/nacos/v2/ns/instance", inst("weight", "5", "enabled", "false"));
      assertThat(edit.status()).as(edit.body()).isEqualTo(200);
      awaitShown(c, all, 5.0, false);

      // The owner dies; its silent instance leaves the survivors after the grace period.
      c.stopNode(owner);
      for (int i : survivors) {
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
            .until(() -> c.http(i).get(NS + "/instance", inst()).status() == 404);
      }
      // The client's redo: the same registration, through another node.
      assertThat(c.http(b).post(NS + "/instance", inst("weight", "1")).status()).isEqualTo(200);
      awaitShown(c, survivors, 5.0, false);
      c.startNode(owner);
      awaitShown(c, all, 5.0, false);

      // An explicit deregistration ends the operator's state: registering again starts clean.
      assertThat(c.http(a).delete(NS + "/instance", inst()).status()).isEqualTo(200);
      for (int i : all) {
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50))
            .until(() -> c.http(i).get(NS + "/instance", inst()).status() == 404);
      }
      assertThat(c.http(b).post(NS + "/instance", inst("weight", "1")).status()).isEqualTo(200);
      awaitShown(c, all, 1.0, true);
    }
  }
}
