package dev.nacre.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nacre.testkit.process.NacreClusterExtension;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two instances of an unmodified Spring Cloud Alibaba application ({@link OrdersApplication})
 * against a 3-node Nacre cluster: the starter registers each over the Nacos 2.x gRPC protocol,
 * every node lists both, each instance finds the other through Spring's {@link DiscoveryClient},
 * and an instance that shuts down is gone from every node and from the other's discovery.
 */
@Timeout(180)
class SpringCloudDiscoveryTest {
  @RegisterExtension
  static final NacreClusterExtension nacre = new NacreClusterExtension(3);
  private static final String SERVICE = "orders";
  /** Registration, Distro replication and a push each take well under a second; this is slack. */
  private static final Duration WAIT = Duration.ofSeconds(20);


  @Test
  void registersDiscoversAndDeregistersOnShutdown() {
    ConfigurableApplicationContext first = start();
    ConfigurableApplicationContext second = null;
    try {
      second = start();
      String firstAddress = "127.0.0.1:" + port(first);
      String secondAddress = "127.0.0.1:" + port(second);
      List<String> both = Stream.of(firstAddress, secondAddress).sorted().toList();

      for (int node = 0; node < nacre.cluster().size(); node++) {
        int n = node;
        await("node " + n + " lists both instances").atMost(WAIT)
            .untilAsserted(() -> assertThat(nacre.cluster().hosts(n, SERVICE)).isEqualTo(both));
        for (JsonNode instance : nacre.cluster().instances(n, SERVICE)) {
          assertThat(instance.path("healthy").asBoolean()).as("healthy on node %d: %s", n, instance).isTrue();
          assertThat(instance.path("ephemeral").asBoolean()).as("ephemeral on node %d: %s", n, instance).isTrue();
          // Written by the starter itself: proof that it, not the test, registered the instance.
          assertThat(instance.path("metadata").path("preserved.register.source").asText())
              .as("metadata on node %d: %s", n, instance).isEqualTo("SPRING_CLOUD");
        }
      }

      for (ConfigurableApplicationContext app : List.of(first, second)) {
        DiscoveryClient discovery = app.getBean(DiscoveryClient.class);
        await("instance on " + port(app) + " discovers both").atMost(WAIT)
            .untilAsserted(() -> assertThat(addresses(discovery.getInstances(SERVICE))).isEqualTo(both));
        assertThat(discovery.getServices()).contains(SERVICE);
        for (ServiceInstance i : discovery.getInstances(SERVICE)) {
          assertThat(i.getServiceId()).isEqualTo(SERVICE);
          // Nacos' instance id (ip#port#cluster#group@@service), which callers use as a key.
          assertThat(i.getInstanceId()).isEqualTo(i.getHost() + "#" + i.getPort() + "#DEFAULT#DEFAULT_GROUP@@" + SERVICE);
          assertThat(i.getMetadata())
              .containsEntry("nacos.cluster", "DEFAULT")
              .containsEntry("nacos.healthy", "true")
              .containsEntry("nacos.ephemeral", "true")
              .containsEntry("preserved.register.source", "SPRING_CLOUD");
        }
      }

      second.close();
      for (int node = 0; node < nacre.cluster().size(); node++) {
        int n = node;
        await("node " + n + " drops the instance that shut down").atMost(WAIT)
            .untilAsserted(() -> assertThat(nacre.cluster().hosts(n, SERVICE)).containsExactly(firstAddress));
      }
      DiscoveryClient remaining = first.getBean(DiscoveryClient.class);
      await("the remaining instance no longer discovers the one that shut down").atMost(WAIT)
          .untilAsserted(() -> assertThat(addresses(remaining.getInstances(SERVICE))).containsExactly(firstAddress));
    } finally {
      if (second != null) {
        second.close();
      }
      first.close();
    }
  }

  private static ConfigurableApplicationContext start() {
    // Discovery alone: SpringCloudConfigTest has the config starter read from Nacre.
    return OrdersApplication.start(
        "--spring.cloud.nacos.discovery.server-addr=" + nacre.cluster().serverAddr(),
        "--spring.cloud.nacos.config.enabled=false");
  }

  private static int port(ConfigurableApplicationContext app) {
    return ((WebServerApplicationContext) app).getWebServer().getPort();
  }

  private static List<String> addresses(List<ServiceInstance> instances) {
    return instances.stream().map(i -> i.getHost() + ":" + i.getPort()).sorted().toList();
  }
}
