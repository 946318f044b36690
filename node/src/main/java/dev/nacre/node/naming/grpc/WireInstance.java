package dev.nacre.node.naming.grpc;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import java.util.HashMap;
import java.util.Map;

/**
 * An instance as the Nacos client sends it (nulls omitted: no {@code clusterName} when the app set
 * none); Nacos' defaults fill the gaps. Derived fields the client adds (heartbeat timings,
 * {@code instanceId}, {@code serviceName}) are ignored: the request names the service.
 */
@JsonIgnoreProperties(ignoreUnknown = true) // the derived fields, skipped unread (NamingRequests)
record WireInstance(
    String ip,
    Integer port,
    Double weight,
    Boolean healthy,
    Boolean enabled,
    Boolean ephemeral,
    String clusterName,
    Map<String, String> metadata) {

  /** The registry's instance, in {@code service}; {@code ephemeralDefault} when not said. */
  Instance toInstance(ServiceKey service, boolean ephemeralDefault) {
    if (port == null) {
      throw NamingException.invalid("Param 'port' is required.");
    }
    return new Instance(
        key(service),
        weight == null ? 1.0 : weight,
        healthy == null || healthy,
        enabled == null || enabled,
        ephemeral == null ? ephemeralDefault : ephemeral,
        metadataOrEmptyValues());
  }

  /**
   * The metadata with a null value kept as an empty one: Nacos stores what a client put in its
   * map, null included, and a client that did must not have its registration refused here.
   */
  private Map<String, String> metadataOrEmptyValues() {
    if (metadata == null) {
      return Map.of();
    }
    Map<String, String> out = new HashMap<>();
    metadata.forEach((k, v) -> out.put(k, v == null ? "" : v));
    return out;
  }

  InstanceKey key(ServiceKey service) {
    String cluster = clusterName == null || clusterName.isBlank() ? InstanceKey.DEFAULT_CLUSTER : clusterName;
    return new InstanceKey(service, cluster, ip == null ? "" : ip, port == null ? 0 : port);
  }

  /** Nacos' gRPC metadata bound: characters of every non-blank key and value, added up. */
  int metadataLength() {
    if (metadata == null) {
      return 0;
    }
    int total = 0;
    for (Map.Entry<String, String> e : metadata.entrySet()) {
      total += e.getKey() == null || e.getKey().isBlank() ? 0 : e.getKey().length();
      total += e.getValue() == null || e.getValue().isBlank() ? 0 : e.getValue().length();
    }
    return total;
  }
}
