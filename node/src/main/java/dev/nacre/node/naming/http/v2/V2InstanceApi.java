package dev.nacre.node.naming.http.v2;

import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.model.ServiceView;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.Json;
import dev.nacre.node.http.Router;
import dev.nacre.node.naming.http.InstanceWrites;
import dev.nacre.node.naming.http.RequestReader;
import dev.nacre.node.naming.http.Views;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * {@code /nacos/v2/ns/instance}: register, deregister, update, patch, detail, list, beat, and batch
 * metadata edits. The writes are v1's ({@link InstanceWrites}, including the forwarding of
 * ephemeral writes and beats to the responsible member); only checks and answers differ.
 */
public final class V2InstanceApi {
  static final String BASE = "/nacos/v2/ns/instance";
  /** Separates the namespace from the service in a {@code /statuses/{key}}. */
  static final String NAMESPACE_SEPARATOR = "##";

  private final NamingOperations naming;
  private final Json json;
  private final InstanceWrites writes;
  private final RequestReader reader;
  private final V2Answers answers;
  private final V2MetadataBatch metadataBatch;

  public V2InstanceApi(NamingOperations naming, Json json, InstanceWrites writes) {
    this.naming = naming;
    this.json = json;
    this.writes = writes;
    this.reader = writes.reader();
    this.answers = new V2Answers(json);
    this.metadataBatch = new V2MetadataBatch(naming, json, reader);
  }

  public void register(Router router) {
    router
        .addAsync("POST", BASE, answers.wrapAsync(form(writes::registerAsync)))
        .addAsync("DELETE", BASE, answers.wrapAsync(form(writes::deregisterAsync)))
        .add("PUT", BASE, answers.wrap(r -> {
          checkForm(r);
          update(r);
          return answers.ok("ok");
        }))
        .add("PATCH", BASE, answers.wrap(this::patch))
        .add("GET", BASE, answers.wrap(this::detail))
        .add("GET", BASE + "/list", answers.wrap(this::list))
        .addAsync("PUT", BASE + "/beat", answers.wrapAsync(this::beat))
        .add("PUT", BASE + "/metadata/batch", answers.wrap(r -> answers.ok(metadataBatch.update(r))))
        .add("DELETE", BASE + "/metadata/batch", answers.wrap(r -> answers.ok(metadataBatch.delete(r))))
        .addWithLastSegment("GET", BASE + "/statuses/", answers.wrap(this::statuses));
  }

  /**
   * {@code GET /statuses/{key}}, key {@code [namespace##][group@@]name}: every instance of the
   * service as {@code ip:port_healthy}, offline ones included; Nacos answers it without the wrapper.
   */
  private ApiResponse statuses(ApiRequest r) {
    String key = Router.lastSegment(r);
    int sep = key.indexOf(NAMESPACE_SEPARATOR);
    String namespace = sep < 0 ? ServiceKey.DEFAULT_NAMESPACE : key.substring(0, sep);
    String serviceName = sep < 0 ? key : key.substring(sep + NAMESPACE_SEPARATOR.length());
    if (namespace.isEmpty() || serviceName.isEmpty()) {
      throw new V2Error(400, V2Code.PARAMETER_VALIDATE_ERROR, "the key '" + key
          + "' must be [namespace##][group@@]serviceName with no empty part, e.g. public##DEFAULT_GROUP@@orders");
    }
    ServiceKey service = reader.service(V2Params.withParam(r, "namespaceId", namespace), serviceName);
    List<Instance> instances;
    try {
      naming.getService(service);
      instances = naming.allInstances(service);
    } catch (NamingException e) {
      throw V2Error.notFoundAs(e, 400, V2Code.SERVICE_NOT_EXIST);
    }
    List<String> ips = instances.stream()
        .map(i -> i.key().ip() + ":" + i.key().port() + "_" + i.healthy()).toList();
    return json.response(Map.of("ips", ips));
  }

  /** Checks the instance form, then writes as v1 does. */
  private Router.AsyncHandler form(Function<ApiRequest, CompletableFuture<Void>> write) {
    return r -> {
      checkForm(r);
      return write.apply(r).thenApply(done -> answers.ok("ok"));
    };
  }

  private void checkForm(ApiRequest r) {
    V2Params.instanceForm(r, () -> reader.metadata(r));
  }

  /** As Nacos: an unknown service is an instance error (400), an unknown instance is not found. */
  private void update(ApiRequest r) {
    try {
      writes.update(r);
    } catch (NamingException e) {
      if (e.kind() == NamingException.Kind.NOT_FOUND && serviceMissing(r)) {
        throw new V2Error(400, V2Code.INSTANCE_ERROR, "service not found: " + reader.service(r).groupedName()
            + " in namespace " + reader.service(r).namespaceId() + "; register an instance or create the service first");
      }
      throw e;
    }
  }

  private boolean serviceMissing(ApiRequest r) {
    try {
      naming.getService(reader.service(r));
      return false;
    } catch (NamingException e) {
      return e.kind() == NamingException.Kind.NOT_FOUND;
    }
  }

  /** Nacos' v2 patch answers a bare {@code ok}, not the wrapper. */
  private ApiResponse patch(ApiRequest r) throws Exception {
    V2Params.instanceIdentity(r);
    V2Params.as(V2Code.INSTANCE_METADATA_ERROR, () -> reader.patch(r));
    writes.patch(r);
    return ApiResponse.ok();
  }

  private ApiResponse detail(ApiRequest r) {
    V2Params.instanceIdentity(r);
    InstanceKey key = reader.instanceKey(r);
    Instance i = naming.getInstance(key);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("serviceName", key.service().groupedName());
    m.put("ip", key.ip());
    m.put("port", key.port());
    m.put("clusterName", key.cluster());
    m.put("weight", i.weight());
    m.put("healthy", i.healthy());
    m.put("instanceId", key.instanceId());
    m.put("metadata", i.metadata());
    return answers.ok(m);
  }

  /** v2 names the cluster filter {@code clusterName} (a comma-separated list, as v1's {@code clusters}). */
  private ApiResponse list(ApiRequest r) {
    V2Params.require(r, "serviceName", "String");
    String clustersParam = r.has("clusterName") ? "clusterName" : "clusters";
    ServiceView view = naming.listInstances(reader.service(r), reader.clusters(r, clustersParam),
        r.boolParam("healthyOnly").orElse(false), reader.linearizable(r));
    return answers.ok(Views.serviceList(view));
  }

  /** Nacos' v2 beat answers as v1 does, without the wrapper. */
  private CompletableFuture<ApiResponse> beat(ApiRequest r) {
    V2Params.require(r, "serviceName", "String");
    return writes.beatAsync(r);
  }
}
