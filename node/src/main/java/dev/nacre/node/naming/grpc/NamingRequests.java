package dev.nacre.node.naming.grpc;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.model.ServiceKey;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The naming requests of the Nacos client, with the fields Nacre reads. The rest is skipped as
 * it is read ({@code ignoreUnknown}): without it Jackson copies every unknown field of a record
 * aside (a token buffer per request) before dropping it, a sixth of a request's decoding.
 * Every one names a service by {@code namespace} ("public" by default), {@code groupName}
 * (DEFAULT_GROUP by default) and the plain {@code serviceName}.
 */
final class NamingRequests {
  private NamingRequests() {}

  static ServiceKey service(String namespace, String groupName, String serviceName) {
    String ns = namespace == null || namespace.isBlank() ? ServiceKey.DEFAULT_NAMESPACE : namespace;
    String group = groupName == null || groupName.isBlank() ? ServiceKey.DEFAULT_GROUP : groupName;
    String name = serviceName == null ? "" : serviceName;
    int separator = name.indexOf(ServiceKey.GROUP_SEPARATOR);
    if (separator > 0) {
      // A grouped name ("group@@name") says its group itself.
      group = name.substring(0, separator);
      name = name.substring(separator + ServiceKey.GROUP_SEPARATOR.length());
    }
    return new ServiceKey(ns, group, name);
  }

  /** A comma list of cluster names; empty for all. */
  static Set<String> clusters(String list) {
    if (list == null || list.isBlank()) {
      return Set.of();
    }
    Set<String> out = new LinkedHashSet<>();
    Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty()).forEach(out::add);
    return out;
  }

  static NamingException unsupportedType(String request, String type) {
    return NamingException.invalid("Param 'type' is illegal: " + request + " does not support type '"
        + type + "'.");
  }

  @JsonIgnoreProperties(ignoreUnknown = true)
  record InstanceRequest(String namespace, String groupName, String serviceName, String type,
      WireInstance instance) {
    ServiceKey serviceKey() {
      return service(namespace, groupName, serviceName);
    }
  }

  @JsonIgnoreProperties(ignoreUnknown = true)
  record BatchInstanceRequest(String namespace, String groupName, String serviceName, String type,
      List<WireInstance> instances) {
    ServiceKey serviceKey() {
      return service(namespace, groupName, serviceName);
    }
  }

  @JsonIgnoreProperties(ignoreUnknown = true)
  record ServiceQueryRequest(String namespace, String groupName, String serviceName, String cluster,
      boolean healthyOnly) {
    ServiceKey serviceKey() {
      return service(namespace, groupName, serviceName);
    }
  }

  @JsonIgnoreProperties(ignoreUnknown = true)
  record SubscribeServiceRequest(String namespace, String groupName, String serviceName,
      boolean subscribe, String clusters) {
    ServiceKey serviceKey() {
      return service(namespace, groupName, serviceName);
    }
  }

  @JsonIgnoreProperties(ignoreUnknown = true)
  record ServiceListRequest(String namespace, String groupName, int pageNo, int pageSize, String selector) {}
}
