package dev.nacre.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.alibaba.nacos.api.NacosFactory;
import com.alibaba.nacos.api.config.ConfigService;
import com.alibaba.nacos.api.exception.NacosException;
import dev.nacre.testkit.process.NacreClusterExtension;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * An unmodified Spring Cloud Alibaba application ({@link OrdersApplication}) that imports its
 * settings from a 3-node Nacre cluster with {@code spring-cloud-starter-alibaba-nacos-config}:
 * the properties are published before it starts, through a member other than the one it reads
 * from; it starts with them; a change published through the third member reaches its
 * {@code @RefreshScope} bean; and it registered itself with the discovery starter meanwhile.
 */
@Timeout(180)
class SpringCloudConfigTest {
  @RegisterExtension
  static final NacreClusterExtension nacre = new NacreClusterExtension(3);
  private static final String SERVICE = "orders";
  private static final String DATA_ID = "orders.properties";
  private static final String GROUP = "DEFAULT_GROUP";
  /** A publish, its replication and the listener's notification each take well under a second; this is slack. */
  private static final Duration WAIT = Duration.ofSeconds(20);


  @Test
  void readsItsPropertiesAtStartAndRefreshesAChangePublishedOnAnotherMember() throws NacosException {
    publish(0, "orders.greeting=hello\n");

    // The application's config client talks to node 1 only, so both publishes reach it by replication.
    ConfigurableApplicationContext app = OrdersApplication.start(
        "--spring.cloud.nacos.discovery.server-addr=" + nacre.cluster().serverAddr(),
        "--spring.cloud.nacos.config.server-addr=" + nacre.cluster().address(1),
        "--spring.config.import=nacos:" + DATA_ID + "?refreshEnabled=true");
    try {
      OrdersApplication.Greeter greeter = app.getBean(OrdersApplication.Greeter.class);
      assertThat(app.getEnvironment().getProperty("orders.greeting")).isEqualTo("hello");
      assertThat(greeter.greeting()).isEqualTo("hello");

      publish(2, "orders.greeting=bonjour\n");
      await("the @RefreshScope bean sees the change published on node 2").atMost(WAIT)
          .untilAsserted(() -> assertThat(greeter.greeting()).isEqualTo("bonjour"));
      assertThat(app.getEnvironment().getProperty("orders.greeting")).isEqualTo("bonjour");

      String address = "127.0.0.1:" + ((WebServerApplicationContext) app).getWebServer().getPort();
      for (int node = 0; node < nacre.cluster().size(); node++) {
        int n = node;
        await("node " + n + " lists the application").atMost(WAIT)
            .untilAsserted(() -> assertThat(nacre.cluster().hosts(n, SERVICE)).containsExactly(address));
      }
    } finally {
      app.close();
    }
  }

  /** Publishes {@link #DATA_ID} through node i alone, with the official client, and checks it was accepted. */
  private static void publish(int node, String content) throws NacosException {
    Properties properties = new Properties();
    properties.setProperty("serverAddr", nacre.cluster().address(node));
    ConfigService configs = NacosFactory.createConfigService(properties);
    try {
      assertThat(configs.publishConfig(DATA_ID, GROUP, content, "properties"))
          .as("publish of %s through node %d", DATA_ID, node).isTrue();
    } finally {
      configs.shutDown();
    }
  }
}
