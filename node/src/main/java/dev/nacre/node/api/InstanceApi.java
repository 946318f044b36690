package dev.nacre.node.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.model.Beat;
import dev.nacre.naming.model.BeatResult;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.InstancePatch;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.model.ServiceView;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.HttpError;
import dev.nacre.node.http.Router;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/** {@code /nacos/v1/ns/instance}: register, deregister, update, patch, detail, list, beat. */
public final class InstanceApi {
  static final String BASE = "/nacos/v1/ns/instance";
  /** Nacos' beat answer codes: known, and unknown (the client registers again). */
  static final int BEAT_OK = 10200;
  static final int BEAT_NOT_FOUND = 20404;

  private final NamingOperations naming;
  private final Json json;
  private final RequestReader reader;
  private final WriteRouting routing;
  private final UdpSubscriber udp;

  public InstanceApi(NamingOperations naming, Json json, WriteRouting routing) {
    this(naming, json, routing, UdpSubscriber.none());
  }

  public InstanceApi(NamingOperations naming, Json json, WriteRouting routing, UdpSubscriber udp) {
    this.naming = naming;
    this.json = json;
    this.reader = new RequestReader(json);
    this.routing = routing;
    this.udp = udp;
  }

  public void register(Router router) {
    router
        .add("POST", BASE, ephemeralWrite(this::registerInstance))
        .add("DELETE", BASE, ephemeralWrite(this::deregister))
        .add("PUT", BASE, ephemeralWrite(this::update))
        .add("PATCH", BASE, ephemeralWrite(this::patch))
        .add("GET", BASE, this::detail)
        .add("GET", BASE + "/list", this::list)
        .add("PUT", BASE + "/beat", this::beatOrForward);
  }

  /** Ephemeral writes are answered by the member responsible for the service; CP writes anywhere. */
  private Router.Handler ephemeralWrite(Router.Handler local) {
    return r -> reader.ephemeral(r) ? answerAtOwner(reader.service(r), r, local) : local.handle(r);
  }

  /** Forwards to the member responsible for the service, or answers here when that is this one or it cannot be reached. */
  private ApiResponse answerAtOwner(ServiceKey service, ApiRequest r, Router.Handler local) throws Exception {
    if (!r.forwarded()) {
      Optional<ApiResponse> answer = routing.remoteOwner(service).flatMap(owner -> routing.forward(owner, r));
      if (answer.isPresent()) {
        return answer.get();
      }
    }
    return local.handle(r);
  }

  private ApiResponse beatOrForward(ApiRequest r) throws Exception {
    return answerAtOwner(beatOf(r).key().service(), r, this::beat);
  }

  private Beat beatOf(ApiRequest r) {
    Optional<JsonNode> beatJson = r.param("beat").map(b -> json.tree("beat", b));
    return beatJson.map(b -> fromBeatJson(r, b)).orElseGet(() -> new Beat(reader.instanceKey(r), Optional.empty()));
  }

  private ApiResponse registerInstance(ApiRequest r) {
    naming.registerInstance(reader.instance(r));
    return ApiResponse.ok();
  }

  private ApiResponse deregister(ApiRequest r) {
    naming.deregisterInstance(reader.instanceKey(r), reader.ephemeral(r));
    return ApiResponse.ok();
  }

  private ApiResponse update(ApiRequest r) {
    naming.updateInstance(reader.instance(r));
    return ApiResponse.ok();
  }

  private ApiResponse patch(ApiRequest r) {
    InstancePatch patch = new InstancePatch(
        r.doubleParam("weight"),
        r.boolParam("enabled"),
        r.boolParam("healthy"),
        r.param("metadata").map(m -> json.metadata("metadata", m)));
    naming.patchInstance(reader.instanceKey(r), reader.ephemeral(r), patch);
    return ApiResponse.ok();
  }

  private ApiResponse detail(ApiRequest r) {
    return json.response(Views.instanceDetail(naming.getInstance(reader.instanceKey(r))));
  }

  private ApiResponse list(ApiRequest r) {
    ServiceKey service = reader.service(r);
    Set<String> clusters = r.param("clusters")
        .map(c -> Arrays.stream(c.split(",")).map(String::trim).filter(s -> !s.isEmpty())
            .collect(Collectors.toCollection(java.util.TreeSet::new)))
        .orElse(new java.util.TreeSet<>());
    boolean linearizable = r.param("consistency").map(c -> {
      if (!c.equals("linearizable") && !c.equals("local")) {
        throw HttpError.badRequest("Param 'consistency' must be 'local' or 'linearizable', got '" + c + "'.");
      }
      return c.equals("linearizable");
    }).orElse(false);
    Optional<InetSocketAddress> receiver = UdpReceivers.of(r);
    ServiceView view = naming.listInstances(
        service, clusters, r.boolParam("healthyOnly").orElse(false), linearizable);
    String clustersAsAsked = r.param("clusters", "");
    receiver.ifPresent(to -> udp.listed(service, clusters, clustersAsAsked, to));
    Map<String, Object> body = Views.serviceList(view);
    // Nacos echoes the parameter: 1.x clients file the list under the clusters string they sent.
    body.put("clusters", clustersAsAsked);
    return json.response(body);
  }

  private ApiResponse beat(ApiRequest r) {
    BeatResult result = naming.beat(beatOf(r));
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("clientBeatInterval", result.clientBeatIntervalMillis());
    body.put("code", result.found() ? BEAT_OK : BEAT_NOT_FOUND);
    body.put("lightBeatEnabled", true);
    return json.response(body);
  }

  /** A client's full beat (ip, port, cluster, serviceName, weight, metadata) may re-create the instance. */
  private Beat fromBeatJson(ApiRequest r, JsonNode b) {
    if (!b.isObject()) {
      throw HttpError.badRequest("Param 'beat' must be a JSON object.");
    }
    String serviceName = text(b, "serviceName").or(() -> r.param("serviceName"))
        .orElseThrow(() -> HttpError.badRequest("Param 'serviceName' is required."));
    String ip = text(b, "ip").or(() -> r.param("ip"))
        .orElseThrow(() -> HttpError.badRequest("Param 'ip' is required."));
    int port = b.hasNonNull("port") ? portOf(b.get("port"))
        : r.intParam("port").orElseThrow(() -> HttpError.badRequest("Param 'port' is required."));
    String cluster = text(b, "cluster").or(() -> r.param("clusterName")).orElse(InstanceKey.DEFAULT_CLUSTER);
    InstanceKey key = new InstanceKey(reader.service(r, serviceName), cluster, ip, port);
    double weight = b.hasNonNull("weight") ? b.get("weight").asDouble(1.0) : 1.0;
    Instance full = new Instance(key, weight, true, true, true, json.stringMap(b.get("metadata")));
    return new Beat(key, Optional.of(full));
  }

  private static int portOf(JsonNode node) {
    if (!node.canConvertToInt()) {
      throw HttpError.badRequest("Param 'beat.port' must be an integer, got " + node);
    }
    return node.asInt();
  }

  private static Optional<String> text(JsonNode node, String field) {
    JsonNode v = node.get(field);
    return v == null || v.isNull() || v.asText().isBlank() ? Optional.empty() : Optional.of(v.asText().trim());
  }
}
