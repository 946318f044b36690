package dev.nacre.node.naming.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.model.ClusterInfo;
import dev.nacre.naming.model.HealthCheckType;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.HttpError;
import dev.nacre.node.http.Json;
import dev.nacre.node.http.Router;
import java.util.Locale;
import java.util.Map;

/** {@code PUT /nacos/v1/ns/cluster}: how the persistent instances of one cluster are probed. */
public final class ClusterApi {
  static final String BASE = "/nacos/v1/ns/cluster";

  private final NamingOperations naming;
  private final Json json;
  private final RequestReader reader;

  public ClusterApi(NamingOperations naming, Json json) {
    this.naming = naming;
    this.json = json;
    this.reader = new RequestReader(json);
  }

  public void register(Router router) {
    router.add("PUT", BASE, this::update);
  }

  private ApiResponse update(ApiRequest r) {
    ServiceKey service = reader.service(r);
    String name = r.param("clusterName", "DEFAULT");
    ClusterInfo current = naming.getCluster(service, name);
    HealthCheckType type = current.checkType();
    String path = current.httpPath();
    if (r.has("healthChecker")) {
      JsonNode checker = json.tree("healthChecker", r.required("healthChecker"));
      type = checkType(checker);
      path = checker.hasNonNull("path") ? checker.get("path").asText() : path;
    }
    int checkPort = r.intParam("checkPort").orElse(current.checkPort());
    if (checkPort < 1 || checkPort > 65535) {
      throw HttpError.badRequest("Param 'checkPort' must be within 1..65535, got " + checkPort + ".");
    }
    naming.updateCluster(new ClusterInfo(
        service, name, type, path, checkPort,
        r.boolParam("useInstancePort4Check").orElse(current.useInstancePort()),
        r.has("metadata") ? reader.metadata(r) : current.metadata()));
    return ApiResponse.ok();
  }

  private static HealthCheckType checkType(JsonNode checker) {
    String type = checker.path("type").asText("");
    try {
      return HealthCheckType.valueOf(type.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw HttpError.badRequest("Param 'healthChecker' has type '" + type + "'; use TCP, HTTP or NONE.");
    }
  }

  /** A cluster's health checker as Nacos writes it: its type, and the path of an HTTP check. */
  public static Map<String, Object> checker(ClusterInfo c) {
    Map<String, Object> checker = new java.util.LinkedHashMap<>();
    checker.put("type", c.checkType().name());
    if (c.checkType() == HealthCheckType.HTTP) {
      checker.put("path", c.httpPath());
    }
    return checker;
  }

  /** A cluster as the service detail shows it. */
  static Map<String, Object> view(ClusterInfo c) {
    Map<String, Object> m = new java.util.LinkedHashMap<>();
    m.put("name", c.name());
    m.put("healthChecker", checker(c));
    m.put("metadata", c.metadata());
    m.put("defaultPort", c.checkPort());
    m.put("useIPPort4Check", c.useInstancePort());
    return m;
  }
}
