package dev.nacre.node.naming.http.v2;

import dev.nacre.naming.api.NamingOperations;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.Json;
import dev.nacre.node.http.Router;
import dev.nacre.node.naming.http.OperatorApi;
import dev.nacre.node.naming.http.Views;
import dev.nacre.node.status.ClusterStatus;
import dev.nacre.node.status.MemberView;
import dev.nacre.node.status.NodeCounts;
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
  /** The switch domain's own name, listed among the switches but no switch. */
  static final String SWITCH_DOMAIN_NAME = "name";
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
        .add("PUT", OPERATOR + "/switches", answers.wrap(this::updateSwitch))
        .add("GET", OPERATOR + "/metrics", answers.wrap(this::metrics))
        .add("GET", NODES + "/list", answers.wrap(this::nodes))
        .add("GET", NODES + "/self", answers.wrap(r -> answers.ok(Views.member(self()))))
        .add("GET", NODES + "/self/health", answers.wrap(r -> answers.ok(self().state())));
  }

  /**
   * Nacos' switch update ({@code entry}, {@code value}, {@code debug}). Nacre's switches follow its
   * configuration, read at start, so an update to the value a switch already has succeeds and any
   * other is refused (400) with the way to change it; Nacos answers an unknown entry with 500.
   */
  private ApiResponse updateSwitch(ApiRequest r) {
    V2Params.require(r, "entry", "String");
    V2Params.require(r, "value", "String");
    String entry = r.param("entry").orElseThrow();
    String value = r.param("value").orElseThrow();
    Object current = switches.get(entry);
    if (current == null || entry.equals(SWITCH_DOMAIN_NAME)) {
      throw new V2Error(400, V2Code.PARAMETER_VALIDATE_ERROR, "unknown switch '" + entry + "'; Nacre has "
          + switches.keySet().stream().filter(k -> !k.equals(SWITCH_DOMAIN_NAME)).toList());
    }
    if (!String.valueOf(current).equalsIgnoreCase(value)) {
      throw new V2Error(400, V2Code.PARAMETER_VALIDATE_ERROR, "switch '" + entry + "' is " + current
          + " on this node and cannot change while it runs: Nacre takes it from its configuration at start"
          + " (conf/nacre.properties, see conf/nacre.properties.example); nothing was changed");
    }
    return answers.ok("ok");
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
