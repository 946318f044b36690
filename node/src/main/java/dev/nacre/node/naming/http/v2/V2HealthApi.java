package dev.nacre.node.naming.http.v2;

import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.model.ClusterInfo;
import dev.nacre.naming.model.HealthCheckType;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.InstancePatch;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.Json;
import dev.nacre.node.http.Router;
import dev.nacre.node.naming.http.RequestReader;
import java.util.Optional;

/**
 * {@code PUT /nacos/v2/ns/health/instance}: an operator sets the health of a persistent instance
 * whose cluster is not probed (health checker NONE), as Nacos allows; probed clusters refuse it.
 * Like Nacos, an unknown or ephemeral instance is answered {@code ok} and left alone.
 */
public final class V2HealthApi {
  static final String BASE = "/nacos/v2/ns/health";

  private final NamingOperations naming;
  private final RequestReader reader;
  private final V2Answers answers;

  public V2HealthApi(NamingOperations naming, Json json) {
    this.naming = naming;
    this.reader = new RequestReader(json);
    this.answers = new V2Answers(json);
  }

  public void register(Router router) {
    router
        .add("PUT", BASE, answers.wrap(this::update))
        .add("PUT", BASE + "/instance", answers.wrap(this::update));
  }

  private ApiResponse update(ApiRequest r) {
    V2Params.require(r, "healthy", "Boolean");
    V2Params.instanceIdentity(r);
    boolean healthy = r.boolParam("healthy").orElseThrow();
    InstanceKey key = reader.instanceKey(r);
    ClusterInfo cluster;
    try {
      cluster = naming.getCluster(key.service(), key.cluster());
    } catch (NamingException e) {
      throw V2Error.notFoundAs(e, 400, V2Code.SERVICE_NOT_EXIST);
    }
    if (cluster.checkType() != HealthCheckType.NONE) {
      throw new V2Error(400, V2Code.HEALTH_CHECK_STILL_RUNNING, "health check is still working, service: "
          + key.service().groupedName() + ", cluster: " + key.cluster() + "; set the cluster's health checker to"
          + " NONE (PUT /nacos/v1/ns/cluster) to set health by hand");
    }
    Optional<Instance> persistent = V2Params.find(naming, key).filter(i -> !i.ephemeral());
    if (persistent.isPresent()) {
      naming.patchInstance(key, false,
          new InstancePatch(Optional.empty(), Optional.empty(), Optional.of(healthy), Optional.empty()));
    }
    return answers.ok("ok");
  }
}
