package dev.nacre.dubbo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.alibaba.nacos.api.NacosFactory;
import com.alibaba.nacos.api.config.ConfigService;
import com.alibaba.nacos.api.exception.NacosException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.nacre.testkit.process.NacreClusterExtension;
import dev.nacre.testkit.process.NacreProcessCluster;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An unmodified Dubbo 3.3 provider and consumer ({@link DubboApp}), each with the one registry
 * address {@code nacos://127.0.0.1:P} of a different member of a 3-node Nacre cluster and Dubbo's
 * defaults, so Nacre is their registry, configuration centre and metadata centre: the consumer
 * finds the provider and calls it, the metadata Dubbo writes is readable on the third member, and
 * for the whole run (dubbo.run.seconds, 30 s by default) neither the Nacos client nor Dubbo's Nacos
 * integration logs an ERROR in either process, but for the one known gap (WARN lines are printed,
 * not yet asserted).
 */
@Timeout(300)
class DubboNacreTest {
  private static final String INTERFACE = GreetingService.class.getName();
  private static final int CALLS = 20;
  private static final Duration START = Duration.ofSeconds(90);
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final int RUN_SECONDS = Integer.getInteger("dubbo.run.seconds", 30);
  /** The Nacos client, and Dubbo's registry, configuration centre and metadata report for Nacos. */
  static final Predicate<String> NACOS_LOGGERS = logger -> logger.startsWith("com.alibaba.nacos")
      || (logger.startsWith("org.apache.dubbo") && logger.contains(".nacos"));
  static final List<DubboProcess> apps = new ArrayList<>();
  @RegisterExtension
  static final NacreClusterExtension nacre = new NacreClusterExtension(3,
      () -> apps.forEach(a -> System.out.println(a.tail())));

  /** Before the extension stops the cluster. */
  @AfterAll
  static void stopApps() {
    apps.forEach(DubboProcess::close);
  }

  @Test
  void consumerCallsProviderWithNacreAsRegistryConfigAndMetadataCentreAndNoNacosErrors() {
    DubboProcess provider = app("provider", "nacos://" + nacre.cluster().address(0), "defaults", 0, 0);
    await("provider started").atMost(START).until(() -> provider.started().isPresent());
    DubboProcess consumer = app("consumer", "nacos://" + nacre.cluster().address(1), "defaults", CALLS, RUN_SECONDS);
    await("consumer's " + CALLS + " calls answered").atMost(START).until(() -> consumer.printed("CALLS_OK " + CALLS));

    // Registry: the provider by application (application-level discovery) and by interface, on the third member.
    await("node 2 lists the provider application").atMost(WAIT)
        .untilAsserted(() -> assertThat(nacre.cluster().hosts(2, DubboApp.PROVIDER_APP)).hasSize(1));
    await("node 2 lists the provider's interface").atMost(WAIT)
        .untilAsserted(() -> assertThat(nacre.cluster().hosts(2, "providers:" + INTERFACE + "::"))
            .isEqualTo(nacre.cluster().hosts(2, DubboApp.PROVIDER_APP)));

    // Metadata, as Dubbo wrote it through Nacre's configuration service, read on the third member.
    // The provider's service definition, stored by Dubbo's metadata report thread after it started
    // (consumers report theirs only with report-consumer-definition, off by default).
    await("node 2 has the provider's service definition").atMost(WAIT).untilAsserted(() -> {
      Map<String, String> configs = configs(2);
      assertThat(configs).hasEntrySatisfying("dubbo/" + INTERFACE + ":::provider:" + DubboApp.PROVIDER_APP,
          definition -> assertThat(definition).contains("\"canonicalName\":\"" + INTERFACE + "\"").contains("greet"));
    });
    // The interface-to-application mapping, a compare-and-set publish of a key that did not exist.
    await("node 2 has the interface's application mapping").atMost(WAIT).untilAsserted(() ->
        assertThat(configs(2)).containsEntry("mapping/" + INTERFACE, DubboApp.PROVIDER_APP));
    System.out.println("configurations Dubbo wrote: " + configs(2).keySet());

    assertThat(consumer.exitCode(Duration.ofSeconds(RUN_SECONDS).plus(START))).as("consumer's exit code").isZero();
    assertThat(consumer.lines()).contains("STOPPED");
    provider.stop();
    assertThat(provider.exitCode(WAIT)).as("provider's exit code").isZero();

    for (DubboProcess app : List.of(provider, consumer)) {
      System.out.println(app.tail());
      System.out.println("all Dubbo and Nacos WARN/ERROR lines:\n"
          + String.join("\n", app.warnings(l -> l.startsWith("org.apache.dubbo") || l.startsWith("com.alibaba.nacos"))));
    }
    for (DubboProcess app : List.of(provider, consumer)) {
      // Only ERROR for now: WARN lines remain (empty-address notifications 1-37 from NacosRegistry, a
      // gRPC reconnect "isAbandon=true", the client's own "mark to redo" at shutdown) whose cause on
      // Nacre's side is not established yet; they are printed above.
      assertThat(app.warnings(NACOS_LOGGERS)).as("%s's Nacos ERROR lines", app)
          .filteredOn(l -> l.contains(" ERROR ")).isEmpty();
      assertThat(app.warnings(l -> l.startsWith("org.apache.dubbo"))).as("%s's Dubbo ERROR lines", app)
          .filteredOn(l -> l.contains(" ERROR ")).isEmpty();
    }
  }

  /**
   * Dubbo's provider writes the interface-to-application mapping (dataId the interface, group
   * {@code mapping}) with a CAS publish whose casMd5 is {@code "0"} when the key does not exist yet
   * (its NacosMetadataReport.getConfigItem). As Nacos, Nacre creates an absent key whatever md5 a
   * compare-and-set names.
   */
  @Test
  void casPublishOfAMissingKeyCreatesItAsNacosDoes() throws NacosException {
    Properties properties = new Properties();
    properties.setProperty("serverAddr", nacre.cluster().address(0));
    ConfigService configs = NacosFactory.createConfigService(properties);
    try {
      assertThat(configs.publishConfigCas("cas.missing.Interface", "mapping", DubboApp.PROVIDER_APP, "0")).isTrue();
      assertThat(configs.getConfig("cas.missing.Interface", "mapping", 5_000)).isEqualTo(DubboApp.PROVIDER_APP);
    } finally {
      configs.shutDown();
    }
  }

  private static DubboProcess app(String role, String registry, String centres, int calls, int runSeconds) {
    DubboProcess p = DubboProcess.start(nacre.dir(), role, role, registry, centres, String.valueOf(calls), String.valueOf(runSeconds));
    apps.add(p);
    return p;
  }

  /** Every configuration in the public namespace, "group/dataId" to content, by Nacos' v1 blur search on node i. */
  private static Map<String, String> configs(int i) {
    HttpResponse<String> r = nacre.cluster().get(i, "/nacos/v1/cs/configs?search=blur&dataId=*&group=&pageNo=1&pageSize=500");
    assertThat(r).as("node %d answered the config search", i).isNotNull();
    assertThat(r.statusCode()).as("config search on node %d: %s", i, r.body()).isEqualTo(200);
    Map<String, String> out = new TreeMap<>();
    for (JsonNode item : NacreProcessCluster.json(r).path("pageItems")) {
      out.put(item.path("group").asText() + "/" + item.path("dataId").asText(), item.path("content").asText());
    }
    return out;
  }
}
