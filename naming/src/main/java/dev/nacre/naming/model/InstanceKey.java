package dev.nacre.naming.model;

import java.util.Objects;

/** Identity of an instance: one {@code ip:port} in one cluster of one service. */
public record InstanceKey(ServiceKey service, String cluster, String ip, int port) {
  public static final String DEFAULT_CLUSTER = "DEFAULT";

  public InstanceKey {
    Objects.requireNonNull(service, "service");
    cluster = Objects.requireNonNull(cluster, "cluster").intern(); // few names, one per instance otherwise
    Objects.requireNonNull(ip, "ip");
  }

  /** Nacos' instance id: {@code ip#port#cluster#group@@service}. */
  public String instanceId() {
    return ip + "#" + port + "#" + cluster + "#" + service.groupedName();
  }
}
