package dev.nacre.node.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.model.ServiceView;
import dev.nacre.node.Node;
import dev.nacre.node.client.Replies.Reply;
import dev.nacre.node.config.NodeConfig;
import dev.nacre.node.naming.grpc.ServiceInfoJson;
import dev.nacre.node.testkit.FreePorts;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * How fast a gRPC {@code ServiceQueryRequest} answer is built and encoded in process (the operation,
 * the {@code serviceInfo} body and the payload bytes; no sockets). Prints figures; run with
 * {@code -Dnacre.measure=true}.
 */
@EnabledIfSystemProperty(named = "nacre.measure", matches = "true")
@Timeout(300)
class QueryRenderingMeasurementTest {
  private static final long BUDGET_NANOS = 3_000_000_000L;
  @TempDir Path dir;

  @Test
  void answersPerSecond() {
    Properties p = new Properties();
    p.setProperty(NodeConfig.PORT, String.valueOf(FreePorts.mainPort()));
    p.setProperty(NodeConfig.BIND, "127.0.0.1");
    p.setProperty(NodeConfig.DATA_DIR, dir.resolve("data").toString());
    // Persistent instances (ephemeral ones would expire without beats), never probed.
    p.setProperty("nacre.naming.probe.period-ms", String.valueOf(3_600_000));
    try (Node node = Node.start(NodeConfig.from(p))) {
      NamingOperations naming = node.naming();
      PayloadCodec codec = new PayloadCodec();
      for (int count : new int[] {10, 100}) {
        ServiceKey service = new ServiceKey("public", "DEFAULT_GROUP", "svc" + count);
        for (int i = 0; i < count; i++) {
          registerRetrying(naming, new Instance(new InstanceKey(service, "DEFAULT", "127.2." + (i / 250) + "." + (i % 250), 80),
              1.0, true, true, false, Map.of("version", "1.2." + i, "zone", "z" + (i % 3))));
        }
        List<Double> runs = new ArrayList<>();
        for (int run = 0; run < 5; run++) {
          long start = System.nanoTime();
          int done = 0;
          long bytes = 0;
          while (done < 20_000 && System.nanoTime() - start < BUDGET_NANOS) {
            ServiceView view = naming.listInstances(service, Set.of(), false, false);
            Reply ok = Replies.ok(codec, "QueryServiceResponse");
            ok.body().set("serviceInfo", ServiceInfoJson.serviceInfo(codec, view, ""));
            bytes += codec.encode(ok.type(), ok.body()).getSerializedSize();
            done++;
          }
          assertThat(bytes).isPositive();
          runs.add(done / ((System.nanoTime() - start) / 1e9));
        }
        Collections.sort(runs);
        System.out.printf("MEASURE in-process gRPC query answer %d instances: median %.0f answers/s (runs %s)%n",
            count, runs.get(2), runs);
      }
    }
  }

  // A loaded machine can delay the standalone Raft group's first commits past the CP timeout.
  private static void registerRetrying(NamingOperations naming, Instance instance) {
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60)).ignoreExceptions()
        .untilAsserted(() -> naming.registerInstance(instance));
  }
}
