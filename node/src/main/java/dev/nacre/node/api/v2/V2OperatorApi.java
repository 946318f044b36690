package dev.nacre.node.api.v2;

import dev.nacre.naming.api.NamingOperations;
import dev.nacre.node.api.ClusterStatus;
import dev.nacre.node.api.Json;
import dev.nacre.node.api.MemberView;
import dev.nacre.node.api.NodeCounts;
import dev.nacre.node.api.OperatorApi;
import dev.nacre.node.api.Views;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.Router;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code /nacos/v2/ns/operator/switches|metrics} and {@code /nacos/v2/core/cluster/node/...}: the
 * v1 views of this node and its members, in the v2 wrapper.
 */
public final class V2OperatorApi {
  static final String OPERATOR = "/nacos/v2/ns/operator";
  static final String NODES = "/nacos/v2/core/cluster/node";
  /** Nacos' member states. */
  static final Set<String> STATES = Set.of("STARTING", "UP", "SUSPICIOUS", "DOWN", "ISOLATION");

  private final NamingOperations naming;
  private final ClusterStatus cluster;
  private final Map<String, Object> switches;
  private final String selfAddress;
  private final V2Answers answers;
  private final NodeCounts nodeCounts;

  public V2OperatorApi(NamingOperations naming, ClusterStatus cluster, Json json, Map<String, Object> switches,
      String selfAddress, NodeCounts nodeCounts) {
    this.nodeCounts = nodeCounts;
    this.naming = naming;
    this.cluster = cluster;
    this.switches = Map.copyOf(switches);
    this.selfAddress = selfAddress;
    this.answers = new V2Answers(json);
  }

  public void register(Router router) {
    router
        .add("GET", OPERATOR + "/switches", answers.wrap(r -> answers.ok(switches)))
        .add("GET", OPERATOR + "/metrics", answers.wrap(this::metrics))
        .add("GET", NODES + "/list", answers.wrap(this::nodes))
        .add("GET", NODES + "/self", answers.wrap(r -> answers.ok(Views.member(self()))))
        .add("GET", NODES + "/self/health", answers.wrap(r -> answers.ok(self().state())));
  }

  /** As Nacos: only the status unless {@code onlyStatus=false}. */
  private ApiResponse metrics(ApiRequest r) {
    if (r.boolParam("onlyStatus").orElse(true)) {
      return answers.ok(Map.of("status", "UP"));
    }
    return answers.ok(OperatorApi.metrics(naming, nodeCounts));
  }

  /** Members whose address starts with {@code address}, in {@code state}, when given. */
  private ApiResponse nodes(ApiRequest r) {
    String prefix = r.param("address", "");
    String state = r.param("state").map(s -> s.toUpperCase(Locale.ROOT)).orElse("");
    if (!state.isEmpty() && !STATES.contains(state)) {
      throw new V2Error(400, V2Code.ILLEGAL_STATE, "Illegal state: " + r.param("state", "")
          + "; use one of " + STATES);
    }
    List<Map<String, Object>> members = cluster.members().stream()
        .filter(m -> m.address().startsWith(prefix))
        .filter(m -> state.isEmpty() || m.state().equals(state))
        .map(Views::member)
        .toList();
    return answers.ok(members);
  }

  private MemberView self() {
    return cluster.self(selfAddress);
  }
}
