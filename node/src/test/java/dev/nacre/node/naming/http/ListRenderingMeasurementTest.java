package dev.nacre.node.naming.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.model.ServiceView;
import dev.nacre.node.Node;
import dev.nacre.node.config.NodeConfig;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.testkit.FreePorts;
import dev.nacre.node.testkit.Http;
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
 * How fast {@code /instance/list} answers: in process (the operation plus the HTTP body, no
 * sockets) and through real HTTP on loopback. A measurement, not a check of speed: it prints
 * figures and asserts only that answers are right. Run it with
 * {@code mvn -B -o verify -pl node -am -Dtest=ListRenderingMeasurementTest -Dnacre.measure=true
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@EnabledIfSystemProperty(named = "nacre.measure", matches = "true")
@Timeout(300)
class ListRenderingMeasurementTest {
  private static final long BUDGET_NANOS = 3_000_000_000L;
  @TempDir Path dir;

  @Test
  void rendersPerSecond() {
    try (Node node = start()) {
      NamingOperations naming = node.naming();
      ServiceKey ten = register(naming, "ten", 10);
      ServiceKey hundred = register(naming, "hundred", 100);
      ServiceListJson json = new ServiceListJson();
      for (ServiceKey service : List.of(ten, hundred)) {
        List<Double> runs = new ArrayList<>();
        for (int run = 0; run < 5; run++) {
          runs.add(rendersPerSecond(naming, json, service, 20_000));
        }
        Collections.sort(runs);
        System.out.printf("MEASURE in-process list+render %s: median %.0f renders/s (runs %s)%n",
            service.name(), runs.get(2), runs);
        List<Double> selects = new ArrayList<>();
        for (int run = 0; run < 5; run++) {
          selects.add(listsPerSecond(naming, service, 20_000));
        }
        Collections.sort(selects);
        System.out.printf("MEASURE in-process list operation only %s: median %.0f lists/s (runs %s)%n",
            service.name(), selects.get(2), selects);
      }

      Http http = new Http("http://127.0.0.1:" + node.httpAddress().getPort());
      Map<String, String> params = Map.of("serviceName", "ten");
      for (int i = 0; i < 500; i++) {
        assertThat(http.get("/nacos/v1/ns/instance/list", params).status()).isEqualTo(200);
      }
      List<Double> runs = new ArrayList<>();
      for (int run = 0; run < 3; run++) {
        int n = 5000;
        long start = System.nanoTime();
        int done = 0;
        while (done < n && System.nanoTime() - start < 2 * BUDGET_NANOS) {
          assertThat(http.get("/nacos/v1/ns/instance/list", params).status()).isEqualTo(200);
          done++;
        }
        runs.add(done / ((System.nanoTime() - start) / 1e9));
      }
      Collections.sort(runs);
      System.out.printf("MEASURE sequential HTTP GET list, 10 instances: median %.0f GET/s (runs %s)%n",
          runs.get(1), runs);
    }
  }

  private static double rendersPerSecond(NamingOperations naming, ServiceListJson json, ServiceKey service, int n) {
    long start = System.nanoTime();
    int done = 0;
    int bytes = 0;
    while (done < n && System.nanoTime() - start < BUDGET_NANOS) {
      ServiceView view = naming.listInstances(service, Set.of(), false, false);
      ApiResponse r = json.answer(view, "");
      bytes += r.body().length;
      done++;
    }
    assertThat(bytes).isPositive();
    return done / ((System.nanoTime() - start) / 1e9);
  }

  private static double listsPerSecond(NamingOperations naming, ServiceKey service, int n) {
    long start = System.nanoTime();
    int done = 0;
    int hosts = 0;
    while (done < n && System.nanoTime() - start < BUDGET_NANOS) {
      hosts += naming.listInstances(service, Set.of(), false, false).hosts().size();
      done++;
    }
    assertThat(hosts).isPositive();
    return done / ((System.nanoTime() - start) / 1e9);
  }

  private static ServiceKey register(NamingOperations naming, String name, int count) {
    ServiceKey service = new ServiceKey("public", "DEFAULT_GROUP", name);
    for (int i = 0; i < count; i++) {
      registerRetrying(naming, new Instance(new InstanceKey(service, "DEFAULT", "127.1." + (i / 250) + "." + (i % 250), 8080),
          1.0, true, true, false, Map.of("version", "1.2." + i, "zone", "z" + (i % 3))));
    }
    assertThat(naming.listInstances(service, Set.of(), false, false).hosts()).hasSize(count);
    return service;
  }

  private Node start() {
    Properties p = new Properties();
    p.setProperty(NodeConfig.PORT, String.valueOf(FreePorts.mainPort()));
    p.setProperty(NodeConfig.BIND, "127.0.0.1");
    p.setProperty(NodeConfig.DATA_DIR, dir.resolve("data").toString());
    // Persistent instances (ephemeral ones would expire without beats), never probed.
    p.setProperty("nacre.naming.probe.period-ms", String.valueOf(3_600_000));
    return Node.start(NodeConfig.from(p));
  }

  // A loaded machine can delay the standalone Raft group's first commits past the CP timeout.
  private static void registerRetrying(NamingOperations naming, Instance instance) {
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60)).ignoreExceptions()
        .untilAsserted(() -> naming.registerInstance(instance));
  }
}
