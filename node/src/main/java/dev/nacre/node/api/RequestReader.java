package dev.nacre.node.api;

import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.HttpError;
import java.util.Map;

/** Reads the identity parameters that most Open API calls share, with Nacos' defaults. */
final class RequestReader {
  private final Json json;

  RequestReader(Json json) {
    this.json = json;
  }

  /**
   * {@code serviceName} may carry its group as {@code group@@name}; otherwise {@code groupName}
   * (default {@code DEFAULT_GROUP}) applies.
   */
  ServiceKey service(ApiRequest r) {
    return service(r, r.required("serviceName"));
  }

  ServiceKey service(ApiRequest r, String serviceName) {
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

  InstanceKey instanceKey(ApiRequest r) {
    String cluster = r.param("clusterName").orElse(r.param("cluster", InstanceKey.DEFAULT_CLUSTER));
    int port = r.intParam("port").orElseThrow(() -> HttpError.badRequest("Param 'port' is required."));
    return new InstanceKey(service(r), cluster, r.required("ip"), port);
  }

  boolean ephemeral(ApiRequest r) {
    return r.boolParam("ephemeral").orElse(true);
  }

  /** A whole instance from register/update parameters. */
  Instance instance(ApiRequest r) {
    return new Instance(
        instanceKey(r),
        r.doubleParam("weight").orElse(1.0),
        r.boolParam("healthy").orElse(true),
        // Nacos 1.x clients send "enable".
        r.boolParam("enabled").or(() -> r.boolParam("enable")).orElse(true),
        ephemeral(r),
        metadata(r));
  }

  Map<String, String> metadata(ApiRequest r) {
    return r.param("metadata").map(m -> json.metadata("metadata", m)).orElse(Map.of());
  }
}
