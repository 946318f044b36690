package dev.nacre.node.naming.http;

import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.model.RegistryCounts;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.Json;
import dev.nacre.node.http.Result;
import dev.nacre.node.http.Router;
import dev.nacre.node.status.ClusterStatus;
import dev.nacre.node.status.LogLevels;
import dev.nacre.node.status.NodeCounts;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code /nacos/v1/ns/operator/*} and {@code /nacos/v1/core/cluster/nodes}. */
public final class OperatorApi {
  private static final Logger log = LoggerFactory.getLogger(OperatorApi.class);
  static final String BASE = "/nacos/v1/ns/operator";
  public static final String VERSION = "2.5.1-nacre";

  private final NamingOperations naming;
  private final ClusterStatus cluster;
  private final Json json;
  private final Map<String, Object> switches;
  private final String selfAddress;
  private final NodeCounts nodeCounts;

  /** @param switches the effective settings, shown as Nacos' switch domain */
  public OperatorApi(NamingOperations naming, ClusterStatus cluster, Json json, Map<String, Object> switches,
      String selfAddress, NodeCounts nodeCounts) {
    this.selfAddress = selfAddress;
    this.nodeCounts = nodeCounts;
    this.naming = naming;
    this.cluster = cluster;
    this.json = json;
    this.switches = Map.copyOf(switches);
  }

  public void register(Router router) {
    router
        .add("GET", BASE + "/switches", r -> json.response(switches))
        .add("GET", BASE + "/metrics", this::metrics)
        .add("GET", BASE + "/servers", this::servers)
        .add("PUT", BASE + "/log", this::logLevel)
        .add("GET", "/nacos/v1/core/cluster/nodes", this::nodes);
  }

  private ApiResponse metrics(ApiRequest r) {
    return json.response(metrics(naming, nodeCounts));
  }

  /** Nacos' naming metrics of this node. */
  public static Map<String, Object> metrics(NamingOperations naming, NodeCounts node) {
    RegistryCounts counts = naming.counts();
    Runtime rt = Runtime.getRuntime();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("status", "UP");
    m.put("serviceCount", counts.services());
    m.put("instanceCount", counts.instances());
    m.put("ephemeralInstanceCount", counts.ephemeralInstances());
    m.put("persistentInstanceCount", counts.persistentInstances());
    m.put("subscribeCount", node.subscriptions());
    m.put("responsibleInstanceCount", node.responsibleInstances());
    m.put("clientCount", node.clients());
    m.put("load", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    m.put("mem", 1.0 - (double) rt.freeMemory() / rt.totalMemory());
    return m;
  }

  private ApiResponse servers(ApiRequest r) {
    List<Map<String, Object>> servers = cluster.members().stream().map(Views::member).toList();
    return json.response(Map.of("servers", servers));
  }

  private ApiResponse nodes(ApiRequest r) {
    return json.response(Result.ok(cluster.members().stream().map(Views::member).toList()));
  }

  private ApiResponse logLevel(ApiRequest r) {
    String logName = r.required("logName");
    String loggerName = LogLevels.set(logName, r.required("logLevel"));
    log.info("log level of {} ({}) set to {}", logName, loggerName, r.required("logLevel"));
    return ApiResponse.ok();
  }
}
