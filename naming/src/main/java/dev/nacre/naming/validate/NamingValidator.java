package dev.nacre.naming.validate;

import dev.nacre.naming.api.NamingConfig;
import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.model.ClusterInfo;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.InstancePatch;
import dev.nacre.naming.model.Namespace;
import dev.nacre.naming.model.ServiceInfo;
import dev.nacre.naming.model.ServiceKey;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Checks every parameter that reaches the registry, with the rules of Nacos' server-side
 * parameter checker (character sets, lengths) plus our own bounds on ip, port, weight and
 * metadata. Failures are {@link NamingException.Kind#INVALID} naming the parameter, in Nacos'
 * wording ("Param 'x' is illegal, ..."). Stateless and thread-safe; shared by HTTP and gRPC.
 */
public final class NamingValidator {
  static final int MAX_GROUP_LENGTH = 128;
  static final int MAX_CLUSTER_LENGTH = 64;
  static final int MAX_NAMESPACE_ID_LENGTH = 64;
  static final int MAX_NAMESPACE_NAME_LENGTH = 256;
  static final int MAX_IP_LENGTH = 128;
  static final double MAX_WEIGHT = 10000.0;

  // Namespace names are rare (console, Open API), so an expression is cheap enough there.
  private static final Pattern NAMESPACE_NAME = Pattern.compile("^[^@#$%^&*]+$");
  private static final List<String> TIMING_KEYS =
      List.of(Instance.HEART_BEAT_INTERVAL, Instance.HEART_BEAT_TIMEOUT, Instance.IP_DELETE_TIMEOUT);

  private final NamingConfig config;

  public NamingValidator(NamingConfig config) {
    this.config = config;
  }

  public void serviceKey(ServiceKey key) {
    namespaceId(key.namespaceId());
    group(key.group());
    serviceName(key.name());
  }

  public void serviceName(String name) {
    required("serviceName", name);
    if (name.length() > config.serviceNameMaxLength()) {
      throw tooLong("serviceName", config.serviceNameMaxLength());
    }
    if (!NameCharacters.serviceName(name) || hasControl(name)) {
      throw illegalCharacters("serviceName");
    }
  }

  public void group(String group) {
    checkName("groupName", group, MAX_GROUP_LENGTH, NameCharacters::groupName);
  }

  public void clusterName(String cluster) {
    // Nacos' server accepts '_' in cluster names; its clients accept [0-9a-zA-Z-] only.
    checkName("clusterName", cluster, MAX_CLUSTER_LENGTH, NameCharacters::wordOrDash);
  }

  public void clusterNames(Collection<String> clusters) {
    clusters.forEach(this::clusterName);
  }

  public void namespaceId(String id) {
    checkName("namespaceId", id, MAX_NAMESPACE_ID_LENGTH, NameCharacters::wordOrDash);
  }

  public void instanceKey(InstanceKey key) {
    serviceKey(key.service());
    clusterName(key.cluster());
    ip(key.ip());
    port(key.port());
  }

  public void instance(Instance instance) {
    instanceKey(instance.key());
    weight(instance.weight());
    metadata(instance.metadata());
    timingMetadata(instance.metadata());
  }

  public void patch(InstancePatch patch) {
    patch.weight().ifPresent(this::weight);
    patch.metadata().ifPresent(m -> {
      metadata(m);
      timingMetadata(m);
    });
  }

  public void ip(String ip) {
    required("ip", ip);
    if (ip.length() > MAX_IP_LENGTH) {
      throw tooLong("ip", MAX_IP_LENGTH);
    }
    if (!HostAddresses.isValid(ip)) {
      throw NamingException.invalid(
          "Param 'ip' is illegal: '" + ip + "' is neither an IPv4 or IPv6 address nor a host name.");
    }
  }

  public void port(int port) {
    if (port < 1 || port > 65535) {
      throw NamingException.invalid("Param 'port' is illegal: " + port + " is not in 1..65535.");
    }
  }

  public void weight(double weight) {
    if (Double.isNaN(weight) || weight < 0 || weight > MAX_WEIGHT) {
      throw NamingException.invalid(
          "Param 'weight' is illegal: instance format invalid: The weights range from 0.00 to"
              + " 10000.0 (was " + weight + ").");
    }
  }

  /** The metadata, written as a JSON object, must fit in the configured number of bytes. */
  public void metadata(Map<String, String> metadata) {
    int size = JsonSize.ofStringMap(metadata);
    if (size > config.metadataMaxBytes()) {
      throw NamingException.invalid(
          "Param 'metadata' is illegal: " + size + " bytes as JSON, the limit is "
              + config.metadataMaxBytes() + " bytes.");
    }
  }

  /** {@code preserved.*} heartbeat settings must be positive numbers of milliseconds. */
  public void timingMetadata(Map<String, String> metadata) {
    for (String key : TIMING_KEYS) {
      String value = metadata.get(key);
      if (value == null) {
        continue;
      }
      long parsed;
      try {
        parsed = Long.parseLong(value.trim());
      } catch (NumberFormatException e) {
        parsed = -1;
      }
      if (parsed <= 0) {
        throw NamingException.invalid(
            "Param 'metadata' is illegal: " + key + " must be a positive number of milliseconds,"
                + " was '" + value + "'.");
      }
    }
  }

  public void serviceInfo(ServiceInfo info) {
    serviceKey(info.key());
    float t = info.protectThreshold();
    if (Float.isNaN(t) || t < 0f || t > 1f) {
      throw NamingException.invalid(
          "Param 'protectThreshold' is illegal: " + t + " is not in 0..1.");
    }
    metadata(info.metadata());
    if (info.selector() == null) {
      throw NamingException.invalid("Param 'selector' is illegal: missing; use {\"type\":\"none\"}.");
    }
  }

  public void cluster(ClusterInfo cluster) {
    serviceKey(cluster.service());
    clusterName(cluster.name());
    if (!cluster.useInstancePort()) {
      port(cluster.checkPort());
    }
    if (!cluster.httpPath().startsWith("/") || hasControl(cluster.httpPath())) {
      throw NamingException.invalid(
          "Param 'healthChecker.path' is illegal: '" + cluster.httpPath() + "' must start with '/'.");
    }
    metadata(cluster.metadata());
  }

  public void namespace(Namespace ns) {
    namespaceId(ns.id());
    checkName("namespaceName", ns.name(), MAX_NAMESPACE_NAME_LENGTH, n -> NAMESPACE_NAME.matcher(n).matches());
    if (ns.description() == null) {
      throw NamingException.invalid("Param 'namespaceDesc' is illegal: missing.");
    }
  }

  private void checkName(String param, String value, int maxLength, Predicate<String> legal) {
    required(param, value);
    if (value.length() > maxLength) {
      throw tooLong(param, maxLength);
    }
    if (!legal.test(value)) {
      throw illegalCharacters(param);
    }
  }

  private static void required(String param, String value) {
    if (value == null || value.isBlank()) {
      throw NamingException.invalid("Param '" + param + "' is required.");
    }
  }

  private static boolean hasControl(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (Character.isISOControl(s.charAt(i))) {
        return true;
      }
    }
    return false;
  }

  private static NamingException tooLong(String param, int max) {
    return NamingException.invalid(
        "Param '" + param + "' is illegal, the param length should not exceed " + max + ".");
  }

  private static NamingException illegalCharacters(String param) {
    return NamingException.invalid(
        "Param '" + param + "' is illegal, illegal characters should not appear in the param.");
  }
}
