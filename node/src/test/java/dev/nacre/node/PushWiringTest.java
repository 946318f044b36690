package dev.nacre.node;

import static dev.nacre.node.TestNode.NS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nacre.naming.api.PushTarget;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.model.ServiceView;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The node pushes what its HTTP API changes to targets subscribed through {@link Node#subscriptions()}. */
@Timeout(60)
class PushWiringTest {
  @TempDir Path dir;

  /** Records pushes and acknowledges them. */
  static final class Recorder implements PushTarget {
    final List<ServiceView> views = new CopyOnWriteArrayList<>();

    @Override
    public String clientId() {
      return "recorder";
    }

    @Override
    public CompletableFuture<Void> push(ServiceView view) {
      views.add(view);
      return CompletableFuture.completedFuture(null);
    }

    List<String> lastPorts() {
      return views.isEmpty() ? List.of()
          : views.get(views.size() - 1).hosts().stream().map(i -> i.key().cluster() + ":" + i.key().port()).toList();
    }
  }

  @Test
  void registrationsDisabledInstancesAndDeregistrationsArePushedFiltered() {
    try (TestNode node = TestNode.start(dir)) {
      Recorder recorder = new Recorder();
      ServiceKey svc = new ServiceKey("public", "DEFAULT_GROUP", "pushed");
      node.node().subscriptions().subscribe(svc, Set.of("A"), recorder);
      await().atMost(Duration.ofSeconds(5)).until(() -> recorder.views.size() == 1);
      assertThat(recorder.views.get(0).hosts()).isEmpty();

      post(node, "1", "A");
      post(node, "2", "B");
      await().atMost(Duration.ofSeconds(5)).until(() -> recorder.lastPorts().equals(List.of("A:1")));

      node.http.post(NS + "/instance", Map.of("serviceName", "pushed", "ip", "127.0.0.1", "port", "3",
          "clusterName", "A", "enabled", "false"));
      post(node, "4", "A");
      await().atMost(Duration.ofSeconds(5)).until(() -> recorder.lastPorts().equals(List.of("A:1", "A:4"))
          || recorder.lastPorts().equals(List.of("A:4", "A:1")));
      assertThat(recorder.views.stream().flatMap(v -> v.hosts().stream()).filter(i -> !i.enabled())).isEmpty();

      node.http.delete(NS + "/instance", Map.of("serviceName", "pushed", "ip", "127.0.0.1", "port", "1",
          "clusterName", "A"));
      await().atMost(Duration.ofSeconds(5)).until(() -> recorder.lastPorts().equals(List.of("A:4")));
      assertThat(recorder.views.get(recorder.views.size() - 1).hosts()).allMatch(Instance::ephemeral);
      assertThat(node.node().subscriptions().servicesOf("recorder")).containsExactly(svc);
    }
  }

  private static void post(TestNode node, String port, String cluster) {
    var r = node.http.post(NS + "/instance", Map.of("serviceName", "pushed", "ip", "127.0.0.1", "port", port,
        "clusterName", cluster));
    assertThat(r.status()).as(r.body()).isEqualTo(200);
  }
}
