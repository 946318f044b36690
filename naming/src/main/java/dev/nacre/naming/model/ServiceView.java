package dev.nacre.naming.model;

import java.util.List;
import java.util.Objects;

/**
 * What {@code /instance/list} returns for one service after filtering.
 *
 * @param clusters the clusters asked for, comma-joined, empty for all
 * @param hosts enabled instances that passed the health filter (or all of them, when the
 *     protection threshold was reached)
 * @param checksum changes whenever the returned host list changes
 * @param renderings encodings of this host list, shared by every view of the same service
 *     snapshot and filter (only {@code lastRefTime} differs between them); not part of equality
 */
public record ServiceView(
    ServiceKey service,
    String clusters,
    List<Instance> hosts,
    boolean reachProtectionThreshold,
    long lastRefTime,
    String checksum,
    RenderCache renderings) {

  /** A view with encodings of its own. */
  public ServiceView(ServiceKey service, String clusters, List<Instance> hosts,
      boolean reachProtectionThreshold, long lastRefTime, String checksum) {
    this(service, clusters, hosts, reachProtectionThreshold, lastRefTime, checksum, new RenderCache());
  }

  /** The same view answered at another time (shares the encodings). */
  public ServiceView at(long refTime) {
    return new ServiceView(service, clusters, hosts, reachProtectionThreshold, refTime, checksum, renderings);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ServiceView v
        && service.equals(v.service) && clusters.equals(v.clusters) && hosts.equals(v.hosts)
        && reachProtectionThreshold == v.reachProtectionThreshold && lastRefTime == v.lastRefTime
        && checksum.equals(v.checksum);
  }

  @Override
  public int hashCode() {
    return Objects.hash(service, clusters, hosts, reachProtectionThreshold, lastRefTime, checksum);
  }

  @Override
  public String toString() {
    return "ServiceView[service=" + service + ", clusters=" + clusters + ", hosts=" + hosts
        + ", reachProtectionThreshold=" + reachProtectionThreshold + ", lastRefTime=" + lastRefTime
        + ", checksum=" + checksum + "]";
  }
}
