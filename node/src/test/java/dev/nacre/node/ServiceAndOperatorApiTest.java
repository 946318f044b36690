package dev.nacre.node;

import static dev.nacre.node.TestNode.NS;
import static dev.nacre.node.TestNode.json;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/** Services, namespaces, operator and cluster endpoints. */
@Timeout(60)
@ExtendWith(TestNodePerClass.class)
class ServiceAndOperatorApiTest {
  static final String NAMESPACES = "/nacos/v1/console/namespaces";
  static TestNode node;

  @Test
  void serviceLifecycle() {
    var create = node.http.post(NS + "/service", Map.of(
        "serviceName", "life", "groupName", "grp", "protectThreshold", "0.3",
        "metadata", "{\"owner\":\"team-a\"}", "selector", "{\"type\":\"none\"}"));
    assertThat(create.status()).isEqualTo(200);
    assertThat(node.http.post(NS + "/service", Map.of("serviceName", "life", "groupName", "grp")).status())
        .as("creating twice").isEqualTo(400);

    JsonNode detail = json(node.http.get(NS + "/service", Map.of("serviceName", "life", "groupName", "grp")));
    assertThat(detail.get("name").asText()).isEqualTo("life");
    assertThat(detail.get("groupName").asText()).isEqualTo("grp");
    assertThat(detail.get("namespaceId").asText()).isEqualTo("public");
    assertThat(detail.get("protectThreshold").asDouble()).isCloseTo(0.3, org.assertj.core.data.Offset.offset(1e-6));
    assertThat(detail.get("metadata").get("owner").asText()).isEqualTo("team-a");
    assertThat(detail.get("selector").get("type").asText()).isEqualTo("none");

    assertThat(node.http.put(NS + "/service", Map.of("serviceName", "grp@@life", "metadata", "{\"owner\":\"team-b\"}")).status()).isEqualTo(200);
    detail = json(node.http.get(NS + "/service", Map.of("serviceName", "life", "groupName", "grp")));
    assertThat(detail.get("metadata").get("owner").asText()).isEqualTo("team-b");
    assertThat(detail.get("protectThreshold").asDouble()).as("update keeps unnamed fields").isCloseTo(0.3, org.assertj.core.data.Offset.offset(1e-6));

    node.http.post(NS + "/instance", Map.of("serviceName", "grp@@life", "ip", "127.1.0.1", "port", "1"));
    assertThat(node.http.delete(NS + "/service", Map.of("serviceName", "life", "groupName", "grp")).status())
        .as("a service with instances cannot be deleted").isEqualTo(400);
    node.http.delete(NS + "/instance", Map.of("serviceName", "grp@@life", "ip", "127.1.0.1", "port", "1"));
    assertThat(node.http.delete(NS + "/service", Map.of("serviceName", "life", "groupName", "grp")).status()).isEqualTo(200);
    assertThat(node.http.get(NS + "/service", Map.of("serviceName", "life", "groupName", "grp")).status()).isEqualTo(404);
    assertThat(node.http.put(NS + "/service", Map.of("serviceName", "life", "groupName", "grp")).status()).isEqualTo(404);
  }

  @Test
  void serviceListPagesSortedNames() {
    for (String s : List.of("p-c", "p-a", "p-b")) {
      node.http.post(NS + "/service", Map.of("serviceName", s, "groupName", "paging"));
    }
    node.http.post(NS + "/instance", Map.of("serviceName", "p-d", "groupName", "paging", "ip", "127.1.1.1", "port", "1"));
    JsonNode page1 = json(node.http.get(NS + "/service/list", Map.of("groupName", "paging", "pageNo", "1", "pageSize", "3")));
    JsonNode page2 = json(node.http.get(NS + "/service/list", Map.of("groupName", "paging", "pageNo", "2", "pageSize", "3")));
    assertThat(page1.get("count").asInt()).isEqualTo(4);
    List<String> names = new ArrayList<>();
    page1.get("doms").forEach(n -> names.add(n.asText()));
    page2.get("doms").forEach(n -> names.add(n.asText()));
    assertThat(names).containsExactly("p-a", "p-b", "p-c", "p-d");
  }

  @Test
  void namespaces() {
    JsonNode list = json(node.http.get(NAMESPACES, Map.of()));
    assertThat(list.get("code").asInt()).isEqualTo(200);
    assertThat(namespaceIds(list)).contains("public");

    assertThat(node.http.post(NAMESPACES, Map.of("customNamespaceId", "dev", "namespaceName", "Dev", "namespaceDesc", "d")).body()).isEqualTo("true");
    assertThat(node.http.put(NAMESPACES, Map.of("namespace", "dev", "namespaceShowName", "Development")).status()).isEqualTo(200);
    JsonNode after = json(node.http.get(NAMESPACES, Map.of()));
    assertThat(namespaceIds(after)).contains("public", "dev");
    after.get("data").forEach(ns -> {
      if (ns.get("namespace").asText().equals("dev")) {
        assertThat(ns.get("namespaceShowName").asText()).isEqualTo("Development");
      }
    });
    assertThat(node.http.delete(NAMESPACES, Map.of("namespaceId", "public")).status()).isEqualTo(400);
    assertThat(node.http.delete(NAMESPACES, Map.of("namespaceId", "dev")).status()).isEqualTo(200);
    assertThat(namespaceIds(json(node.http.get(NAMESPACES, Map.of())))).doesNotContain("dev");
  }

  private static List<String> namespaceIds(JsonNode list) {
    List<String> ids = new ArrayList<>();
    list.get("data").forEach(ns -> ids.add(ns.get("namespace").asText()));
    return ids;
  }

  @Test
  void clusterNodesShowsThisNodeAsRaftLeader() {
    JsonNode nodes = json(node.http.get("/nacos/v1/core/cluster/nodes", Map.of()));
    assertThat(nodes.get("code").asInt()).isEqualTo(200);
    JsonNode self = nodes.get("data").get(0);
    assertThat(self.get("state").asText()).isEqualTo("UP");
    assertThat(self.get("extendInfo").get("raftMetaData").get("role").asText()).isEqualTo("LEADER");
    JsonNode servers = json(node.http.get(NS + "/operator/servers", Map.of()));
    assertThat(servers.get("servers").get(0).get("address").asText()).isEqualTo(self.get("address").asText());
  }

  @Test
  void switchesAndMetrics() {
    JsonNode switches = json(node.http.get(NS + "/operator/switches", Map.of()));
    assertThat(switches.get("clientBeatInterval").asLong()).isEqualTo(5000);
    node.http.post(NS + "/instance", Map.of("serviceName", "metric", "ip", "127.1.2.1", "port", "1"));
    JsonNode metrics = json(node.http.get(NS + "/operator/metrics", Map.of()));
    assertThat(metrics.get("status").asText()).isEqualTo("UP");
    assertThat(metrics.get("instanceCount").asInt()).isGreaterThanOrEqualTo(1);
    assertThat(metrics.get("serviceCount").asInt()).isGreaterThanOrEqualTo(1);
  }

  @Test
  void logLevelChangesAtRunTime() {
    LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();
    assertThat(node.http.put(NS + "/operator/log", Map.of("logName", "naming-raft", "logLevel", "DEBUG")).status()).isEqualTo(200);
    assertThat(ctx.getLogger("dev.nacre.consensus.raft").getLevel()).isEqualTo(Level.DEBUG);
    assertThat(node.http.put(NS + "/operator/log", Map.of("logName", "naming-raft", "logLevel", "INFO")).status()).isEqualTo(200);
    assertThat(ctx.getLogger("dev.nacre.consensus.raft").getLevel()).isEqualTo(Level.INFO);
    assertThat(node.http.put(NS + "/operator/log", Map.of("logName", "dev.nacre.naming", "logLevel", "WARN")).status()).isEqualTo(200);
    assertThat(ctx.getLogger("dev.nacre.naming").getLevel()).isEqualTo(Level.WARN);
    node.http.put(NS + "/operator/log", Map.of("logName", "dev.nacre.naming", "logLevel", "INFO"));
  }

  /** Issue 11: a name that is no logger of the server is refused and creates none. */
  @Test
  void anUnknownLoggerNameIsRefusedAndCreatesNoLogger() {
    LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();
    int before = ctx.getLoggerList().size();
    var r = node.http.put(NS + "/operator/log", Map.of("logName", "made.up.logger.x1", "logLevel", "DEBUG"));
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.body()).startsWith("caused: ").contains("logName").contains("naming-raft");
    assertThat(ctx.exists("made.up.logger.x1")).isNull();
    assertThat(ctx.getLoggerList()).hasSize(before);
  }
}
