package dev.nacre.client3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.alibaba.nacos.api.naming.NamingService;
import com.alibaba.nacos.api.naming.listener.NamingEvent;
import com.alibaba.nacos.api.naming.pojo.Instance;
import dev.nacre.testkit.process.NacreClusterExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A smoke test of the official nacos-client 3.1.x {@code NamingService} against a 3-node Nacre
 * cluster of real processes: register, list, and a subscriber on one member that hears instances
 * registered and deregistered by other clients through other members.
 */
@Timeout(120)
class Client3NamingTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  static final NacosLogRecorder log = NacosLogRecorder.installed();
  @RegisterExtension
  static final NacreClusterExtension nacre = new NacreClusterExtension(3, () -> System.out.println(
      "Nacos client WARN/ERROR lines:\n" + String.join("\n", log.warnings()) + "\n" + String.join("\n", log.errors())));
  final Client3Clients clients = new Client3Clients();

  @AfterEach
  void closeClientsAndCheckTheirLogs() throws Exception {
    clients.close();
    assertThat(log.errors()).as("ERROR lines of com.alibaba.nacos").isEmpty();
  }

  @Test
  void registerListAndSubscribeAcrossMembers() throws Exception {
    NamingService subscriber = clients.naming(nacre.cluster().address(0));
    NamingService first = clients.naming(nacre.cluster().address(1));
    NamingService second = clients.naming(nacre.cluster().address(2));
    AtomicReference<List<String>> pushed = new AtomicReference<>(List.of());
    subscriber.subscribe("c3.orders", event -> {
      if (event instanceof NamingEvent e) {
        pushed.set(endpoints(e.getInstances()));
      }
    });

    first.registerInstance("c3.orders", "10.0.0.1", 8080);
    await("member 1's client lists its instance").atMost(WAIT)
        .untilAsserted(() -> assertThat(endpoints(first.getAllInstances("c3.orders"))).containsExactly("10.0.0.1:8080"));
    await("member 0's subscriber hears it").atMost(WAIT)
        .untilAsserted(() -> assertThat(pushed.get()).containsExactly("10.0.0.1:8080"));
    assertThat(nacre.cluster().hosts(2, "c3.orders")).as("member 2's v1 list").containsExactly("10.0.0.1:8080");

    second.registerInstance("c3.orders", "10.0.0.2", 8080);
    await("subscriber hears the second client's instance").atMost(WAIT)
        .untilAsserted(() -> assertThat(pushed.get()).containsExactly("10.0.0.1:8080", "10.0.0.2:8080"));
    assertThat(endpoints(subscriber.getAllInstances("c3.orders"))).containsExactly("10.0.0.1:8080", "10.0.0.2:8080");

    first.deregisterInstance("c3.orders", "10.0.0.1", 8080);
    await("subscriber hears the deregistration").atMost(WAIT)
        .untilAsserted(() -> assertThat(pushed.get()).containsExactly("10.0.0.2:8080"));
  }

  /**
   * As in Nacos 2.x and 3.x, a gRPC client holds one ephemeral instance per service: its second
   * {@code registerInstance} of a service (a plain {@code InstanceRequest} of type
   * {@code registerInstance}) replaces the first.
   */
  @Test
  void aClientsSecondRegistrationOfAServiceReplacesItsFirst() throws Exception {
    NamingService subscriber = clients.naming(nacre.cluster().address(0));
    NamingService provider = clients.naming(nacre.cluster().address(1));
    AtomicReference<List<String>> pushed = new AtomicReference<>(List.of());
    subscriber.subscribe("c3.moved", event -> pushed.set(endpoints(((NamingEvent) event).getInstances())));

    provider.registerInstance("c3.moved", "10.0.1.1", 8080);
    await("subscriber hears the first").atMost(WAIT)
        .untilAsserted(() -> assertThat(pushed.get()).containsExactly("10.0.1.1:8080"));
    provider.registerInstance("c3.moved", "10.0.1.2", 8080);
    await("subscriber hears the replacement").atMost(WAIT)
        .untilAsserted(() -> assertThat(pushed.get()).containsExactly("10.0.1.2:8080"));
    assertThat(nacre.cluster().hosts(2, "c3.moved")).as("member 2's v1 list").containsExactly("10.0.1.2:8080");
  }

  /**
   * Nacos replaces a connection's instance of a service in one step
   * ({@code Client.addServiceInstance} puts it in the client's publishers map), so subscribers
   * never see the old and the new instance together. Nacre's
   * {@code dev.nacre.naming.operations.ClientInstances.register} stores the new instance and then
   * removes the old one (and {@code replace}, for {@code batchRegisterInstance}, likewise adds
   * before it removes), and each store change is pushed: the subscriber gets a
   * {@code NotifySubscriberRequest} listing both, then one listing the new one.
   */
  @Test
  @Disabled("server gap: ClientInstances.register adds the connection's new instance before removing its previous one; "
      + "subscribers are pushed [old, new] for an instant (the 3.1.1 client logs 'current ips:(2)' then 'removed ips(1)')")
  void aReplacedRegistrationIsNeverPushedTogetherWithItsPredecessor() throws Exception {
    NamingService subscriber = clients.naming(nacre.cluster().address(0));
    NamingService provider = clients.naming(nacre.cluster().address(1));
    List<List<String>> pushes = new CopyOnWriteArrayList<>();
    subscriber.subscribe("c3.atomic", event -> pushes.add(endpoints(((NamingEvent) event).getInstances())));

    provider.registerInstance("c3.atomic", "10.0.2.1", 8080);
    await("subscriber hears the first").atMost(WAIT)
        .untilAsserted(() -> assertThat(pushes).contains(List.of("10.0.2.1:8080")));
    provider.registerInstance("c3.atomic", "10.0.2.2", 8080);
    await("subscriber hears the replacement").atMost(WAIT)
        .untilAsserted(() -> assertThat(pushes).endsWith(List.of("10.0.2.2:8080")));
    assertThat(pushes).as("every instance list the subscriber was given").allMatch(l -> l.size() <= 1);
  }

  private static List<String> endpoints(List<Instance> instances) {
    return instances.stream().map(i -> i.getIp() + ":" + i.getPort()).sorted().toList();
  }
}
