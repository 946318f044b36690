package dev.nacre.naming.health;

import dev.nacre.naming.model.ClusterInfo;

/** One server-side check of a persistent instance. Blocking, bounded by its own timeout. */
@FunctionalInterface
public interface HealthProbe {
  /** True when the address answered as the cluster's checker requires; false on any failure. */
  boolean isHealthy(String host, int port, ClusterInfo cluster);
}
