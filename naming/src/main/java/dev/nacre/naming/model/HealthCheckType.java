package dev.nacre.naming.model;

/** How the server probes the persistent instances of a cluster. */
public enum HealthCheckType {
  /** Healthy when a TCP connection to the port opens within the connect timeout. */
  TCP,
  /** Healthy when an HTTP GET of the cluster's path answers 2xx. */
  HTTP,
  /** Not probed: health stays as registered or last set. */
  NONE
}
