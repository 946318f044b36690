package dev.nacre.naming.model;

import java.util.Map;
import java.util.Objects;

/**
 * Cluster-level settings of a service, as Nacos keeps them: how persistent instances are probed.
 *
 * @param checkPort port probed when {@code useInstancePort} is false (Nacos' default 80)
 * @param useInstancePort probe each instance's own port (Nacos' default true)
 * @param httpPath path of the HTTP GET for {@link HealthCheckType#HTTP}
 */
public record ClusterInfo(
    ServiceKey service,
    String name,
    HealthCheckType checkType,
    String httpPath,
    int checkPort,
    boolean useInstancePort,
    Map<String, String> metadata) {
  public static final int DEFAULT_CHECK_PORT = 80;

  public ClusterInfo {
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(checkType, "checkType");
    httpPath = httpPath == null || httpPath.isEmpty() ? "/" : httpPath;
    metadata = Map.copyOf(metadata);
  }

  /** What a cluster that was never configured behaves like: TCP on the instance's port. */
  public static ClusterInfo defaults(ServiceKey service, String name) {
    return new ClusterInfo(
        service, name, HealthCheckType.TCP, "/", DEFAULT_CHECK_PORT, true, Map.of());
  }

  /** The port to probe for an instance listening on {@code instancePort}. */
  public int probePort(int instancePort) {
    return useInstancePort ? instancePort : checkPort;
  }
}
