package dev.nacre.node.naming.http;

import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.InstancePatch;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.HttpError;
import dev.nacre.node.http.Json;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Reads the parameters that the Open API calls (v1 and v2) share, with Nacos' defaults. Failures
 * are {@link HttpError}s of status 400 naming the parameter. Thread-safe.
 */
public final class RequestReader {
  private final Json json;

  public RequestReader(Json json) {
    this.json = json;
  }

  /**
   * {@code serviceName} may carry its group as {@code group@@name}; otherwise {@code groupName}
   * (default {@code DEFAULT_GROUP}) applies.
   */
  public ServiceKey service(ApiRequest r) {
    return service(r, r.required("serviceName"));
  }

  public ServiceKey service(ApiRequest r, String serviceName) {
    String namespace = r.param("namespaceId", ServiceKey.DEFAULT_NAMESPACE);
    int sep = serviceName.indexOf(ServiceKey.GROUP_SEPARATOR);
    if (sep < 0) {
      return new ServiceKey(namespace, r.param("groupName", ServiceKey.DEFAULT_GROUP), serviceName);
    }
    String group = serviceName.substring(0, sep);
    String name = serviceName.substring(sep + ServiceKey.GROUP_SEPARATOR.length());
    if (group.isEmpty() || name.isEmpty() || name.contains(ServiceKey.GROUP_SEPARATOR)) {
      throw HttpError.badRequest("Param 'serviceName' is illegal: '" + serviceName
          + "' must be 'name' or 'group@@name' with both parts non-empty");
    }
    return new ServiceKey(namespace, group, name);
  }

  public InstanceKey instanceKey(ApiRequest r) {
    String cluster = r.param("clusterName").orElse(r.param("cluster", InstanceKey.DEFAULT_CLUSTER));
    int port = r.intParam("port").orElseThrow(() -> HttpError.badRequest("Param 'port' is required."));
    return new InstanceKey(service(r), cluster, r.required("ip"), port);
  }

  public boolean ephemeral(ApiRequest r) {
    return r.boolParam("ephemeral").orElse(true);
  }

  /** A whole instance from register/update parameters. */
  public Instance instance(ApiRequest r) {
    return new Instance(
        instanceKey(r),
        r.doubleParam("weight").orElse(1.0),
        r.boolParam("healthy").orElse(true),
        // Nacos 1.x clients send "enable".
        r.boolParam("enabled").or(() -> r.boolParam("enable")).orElse(true),
        ephemeral(r),
        metadata(r));
  }

  /** The fields a PATCH names; the others stay as they are. */
  public InstancePatch patch(ApiRequest r) {
    return new InstancePatch(
        r.doubleParam("weight"),
        r.boolParam("enabled"),
        r.boolParam("healthy"),
        r.param("metadata").map(m -> json.metadata("metadata", m)));
  }

  public Map<String, String> metadata(ApiRequest r) {
    return r.param("metadata").map(m -> json.metadata("metadata", m)).orElse(Map.of());
  }

  /** A comma-separated list of cluster names; empty for all clusters. */
  public Set<String> clusters(ApiRequest r, String param) {
    return r.param(param)
        .map(c -> Arrays.stream(c.split(",")).map(String::trim).filter(s -> !s.isEmpty())
            .collect(Collectors.toCollection(TreeSet::new)))
        .orElse(new TreeSet<>());
  }

  /** {@code consistency=linearizable} asks for a read through the Raft read index. */
  public boolean linearizable(ApiRequest r) {
    return r.param("consistency").map(c -> {
      if (!c.equals("linearizable") && !c.equals("local")) {
        throw HttpError.badRequest("Param 'consistency' must be 'local' or 'linearizable', got '" + c + "'.");
      }
      return c.equals("linearizable");
    }).orElse(false);
  }

  public Optional<Float> protectThreshold(ApiRequest r) {
    return r.floatParam("protectThreshold").map(t -> {
      if (t.isNaN() || t < 0f || t > 1f) {
        throw HttpError.badRequest("Param 'protectThreshold' must be within 0..1, got " + t + ".");
      }
      return t;
    });
  }

  /** Nacos' selector JSON, which must name a type. */
  public Optional<String> selector(ApiRequest r) {
    return r.param("selector").map(s -> {
      var node = json.tree("selector", s);
      if (!node.isObject() || !node.hasNonNull("type")) {
        throw HttpError.badRequest("Param 'selector' must be a JSON object with a 'type', e.g. {\"type\":\"none\"}.");
      }
      return node.toString();
    });
  }
}
