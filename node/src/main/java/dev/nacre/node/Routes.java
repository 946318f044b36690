package dev.nacre.node;

import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.writes.InstanceWriteRouter;
import dev.nacre.node.auth.AccessControl;
import dev.nacre.node.auth.AuthApi;
import dev.nacre.node.auth.HttpAccessRules;
import dev.nacre.node.config.NodeConfig;
import dev.nacre.node.console.ConsoleFiles;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.Json;
import dev.nacre.node.http.Router;
import dev.nacre.node.naming.http.CatalogServicesApi;
import dev.nacre.node.naming.http.ClusterApi;
import dev.nacre.node.naming.http.InstanceApi;
import dev.nacre.node.naming.http.InstanceWrites;
import dev.nacre.node.naming.http.NamespaceApi;
import dev.nacre.node.naming.http.NamingErrors;
import dev.nacre.node.naming.http.OperatorApi;
import dev.nacre.node.naming.http.ServiceApi;
import dev.nacre.node.naming.http.UdpSubscriber;
import dev.nacre.node.naming.http.v2.V2CatalogApi;
import dev.nacre.node.naming.http.v2.V2ClientApi;
import dev.nacre.node.naming.http.v2.V2HealthApi;
import dev.nacre.node.naming.http.v2.V2InstanceApi;
import dev.nacre.node.naming.http.v2.V2OperatorApi;
import dev.nacre.node.naming.http.v2.V2ServiceApi;
import dev.nacre.node.status.ClusterStatus;
import dev.nacre.node.status.HealthApi;
import dev.nacre.node.status.MembersApi;
import dev.nacre.node.status.NodeCounts;
import dev.nacre.node.status.RaftAdminApi;
import dev.nacre.node.status.Readiness;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The HTTP routing table of a node: every Open API area registers its paths. */
final class Routes {
  private final Router router = new Router();

  Routes(NamingOperations naming, InstanceWriteRouter writes, ClusterStatus cluster, NodeConfig config, UdpSubscriber udp,
      Readiness readiness, NodeCounts nodeCounts, AccessControl access, RegistryViews views) {
    Json json = new Json();
    InstanceWrites instanceWrites = new InstanceWrites(json, writes);
    Map<String, Object> switches = switches(config);
    new InstanceApi(naming, json, instanceWrites, udp, config.udpPushToClientIp()).register(router);
    new ServiceApi(naming, json).register(router);
    new CatalogServicesApi(naming, json, views.servicesOf()).register(router);
    new NamespaceApi(naming, json).register(router);
    new ClusterApi(naming, json).register(router);
    new OperatorApi(naming, cluster, json, switches, config.address(), nodeCounts).register(router);
    new HealthApi(cluster, readiness, config.address()).register(router);
    new ConsoleFiles().register(router);
    HttpAccessRules accessRules = new HttpAccessRules(access);
    router.guard(request -> refusal(request, accessRules, readiness, config.address()));
    router.answerErrors(NamingErrors::answer);
    new AuthApi(access).register(router);
    // Nacos' v2 Open API: the same operations, in the {code, message, data} wrapper.
    new V2InstanceApi(naming, json, instanceWrites).register(router);
    new V2ServiceApi(naming, json).register(router);
    new V2HealthApi(naming, json).register(router);
    new V2CatalogApi(naming, views.owners(), json).register(router);
    new V2ClientApi(views.clients(), json).register(router);
    new V2OperatorApi(naming, cluster, json, switches, config.address(), nodeCounts).register(router);
  }

  /**
   * Client authentication first (when on): a refused request learns nothing of the node's state.
   * Then, until the node is ready, clients get 503 (a Nacos client then tries another server)
   * instead of a registry that may lack what peers hold (peers' ephemeral writes come over the peer
   * port); the probes and the console's files answer anyway, to show those answers. Before the
   * persistent state is read the access rules lack their records (they would refuse valid
   * credentials), so until then the 503 comes first.
   */
  static Optional<ApiResponse> refusal(ApiRequest request, HttpAccessRules accessRules, Readiness readiness,
      String address) {
    if (HealthApi.answersBeforeReady(request.path()) || ConsoleFiles.serves(request.path())) {
      return accessRules.refusal(request);
    }
    if (!readiness.isPersistentLoaded()) {
      return notReady(readiness, address);
    }
    return accessRules.refusal(request).or(() -> notReady(readiness, address));
  }

  private static Optional<ApiResponse> notReady(Readiness readiness, String address) {
    return readiness.notReadyReason().map(why -> ApiResponse.error(503,
        "node " + address + " is not ready (" + why + "); retry shortly or use another member"));
  }

  /** Adds the Raft admin and membership APIs, on this node's Raft member. */
  Routes withAdmin(String address, StartingReplicatedLog raft, MemberViews members, MembershipChanges changes) {
    new RaftAdminApi(address, members::currentIds, raft, new Json()).register(router);
    new MembersApi(address, changes, new Json()).register(router);
    return this;
  }

  Router router() {
    return router;
  }

  /** The effective settings under the names of Nacos' switch domain. */
  private static Map<String, Object> switches(NodeConfig config) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", "00-00---000-NACOS_SWITCH_DOMAIN-000---00-00");
    m.put("clientBeatInterval", config.naming().defaultBeatInterval().toMillis());
    m.put("defaultCacheMillis", 10_000);
    m.put("defaultPushCacheMillis", 10_000);
    m.put("healthCheckEnabled", true);
    m.put("distroEnabled", true);
    m.put("pushEnabled", true);
    m.put("lightBeatEnabled", true);
    m.put("defaultInstanceEphemeral", true);
    m.put("checkTimes", 3);
    m.put("tcpHealthParams", Map.of("max", 5000, "min", 500, "factor", 0.75));
    m.put("httpHealthParams", Map.of("max", 5000, "min", 500, "factor", 0.85));
    m.put("distroServerExpiredMillis", 10_000);
    m.put("enableStandalone", config.members().size() == 1);
    return m;
  }
}
