package dev.nacre.node.status;

import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.Router;

/**
 * Probes for orchestrators and scripts: Nacos' {@code /nacos/v1/console/health/liveness} and
 * {@code /readiness} (200 "OK"; readiness 500 with the reason while the node is not ready), and
 * {@code /nacre/v1/status}, one plain line about this node.
 */
public final class HealthApi {
  static final String BASE = "/nacos/v1/console/health";

  private final ClusterStatus cluster;
  private final Readiness readiness;
  private final String selfAddress;

  public HealthApi(ClusterStatus cluster, Readiness readiness, String selfAddress) {
    this.cluster = cluster;
    this.readiness = readiness;
    this.selfAddress = selfAddress;
  }

  public void register(Router router) {
    router
        .add("GET", BASE + "/liveness", r -> ApiResponse.text(200, "OK"))
        .add("GET", BASE + "/readiness", this::readiness)
        .add("GET", "/nacre/v1/status", this::selfStatus);
  }

  private ApiResponse readiness(ApiRequest r) {
    return readiness.notReadyReason()
        .map(why -> ApiResponse.text(500, "node " + selfAddress + " is not ready: " + why))
        .orElseGet(() -> ApiResponse.text(200, "OK"));
  }

  /**
   * {@code address state role leader=... term=... distro=...}, for scripts: distro is LOADING,
   * LOADED, ALONE or STANDALONE (see {@link Readiness.DistroState}).
   */
  private ApiResponse selfStatus(ApiRequest r) {
    MemberView self = cluster.self(selfAddress);
    return ApiResponse.text(200, self.address() + " " + self.state() + " " + self.raftRole()
        + " leader=" + (self.raftLeader().isEmpty() ? "none" : self.raftLeader()) + " term=" + self.raftTerm()
        + " distro=" + readiness.distro() + "\n");
  }

  /** True for the paths that answer while the node is not ready yet: health, status and metrics. */
  public static boolean answersBeforeReady(String path) {
    return path.startsWith(BASE + "/") || path.equals("/nacre/v1/status") || path.equals("/metrics")
        || path.equals("/nacos/actuator/prometheus");
  }
}
