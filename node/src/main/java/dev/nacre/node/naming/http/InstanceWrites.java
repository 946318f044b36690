package dev.nacre.node.naming.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nacre.naming.model.Beat;
import dev.nacre.naming.model.BeatResult;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.InstancePatch;
import dev.nacre.naming.writes.InstanceWriteRouter;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.HttpError;
import dev.nacre.node.http.Json;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The instance writes the v1 and v2 Open APIs share: the same parameters, handed to naming's
 * {@link InstanceWriteRouter}, which decides where each applies. The APIs differ only in how they
 * check parameters first and how they wrap answers and errors.
 */
public final class InstanceWrites {
  /** Nacos' beat answer codes: known, and unknown (the client registers again). */
  static final int BEAT_OK = 10200;
  static final int BEAT_NOT_FOUND = 20404;

  private final Json json;
  private final RequestReader reader;
  private final InstanceWriteRouter writes;

  public InstanceWrites(Json json, InstanceWriteRouter writes) {
    this.json = json;
    this.reader = new RequestReader(json);
    this.writes = writes;
  }

  public RequestReader reader() {
    return reader;
  }

  /**
   * Registers, answered through a future so that no thread waits: an ephemeral registration's
   * future is its responsible member's answer, a persistent one's its Raft write.
   */
  public CompletableFuture<Void> registerAsync(ApiRequest r) {
    return writes.register(reader.instance(r));
  }

  /** Deregisters, answered through a future as {@link #registerAsync} is. */
  public CompletableFuture<Void> deregisterAsync(ApiRequest r) {
    return writes.deregister(reader.instanceKey(r), reader.ephemeral(r));
  }

  /**
   * Nacos' update: weight and enabled (defaults 1.0 and true) and, when given, metadata. For an
   * ephemeral instance this is the operator's override, so metadata the call does not name stays
   * the client's; a persistent instance is replaced whole, as before.
   */
  public void update(ApiRequest r) {
    writes.update(reader.ephemeral(r), reader.instanceKey(r), () -> reader.instance(r),
        () -> new InstancePatch(
            Optional.of(r.doubleParam("weight").orElse(1.0)),
            Optional.of(r.boolParam("enabled").orElse(true)),
            Optional.empty(),
            r.param("metadata").map(m -> json.metadata("metadata", m))));
  }

  public void patch(ApiRequest r) {
    writes.patch(reader.instanceKey(r), reader.ephemeral(r), reader.patch(r));
  }

  /** Nacos' beat answer, the same in v1 and v2 (v2 does not wrap it), through a future. */
  public CompletableFuture<ApiResponse> beatAsync(ApiRequest r) {
    return writes.beat(beatOf(r)).thenApply(this::beatAnswer);
  }

  private ApiResponse beatAnswer(BeatResult result) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("clientBeatInterval", result.clientBeatIntervalMillis());
    body.put("code", result.found() ? BEAT_OK : BEAT_NOT_FOUND);
    body.put("lightBeatEnabled", true);
    return json.response(body);
  }

  private Beat beatOf(ApiRequest r) {
    Optional<JsonNode> beatJson = r.param("beat").map(b -> json.tree("beat", b));
    return beatJson.map(b -> fromBeatJson(r, b)).orElseGet(() -> new Beat(reader.instanceKey(r), Optional.empty()));
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
