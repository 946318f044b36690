package dev.nacre.node.naming.http;

import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.model.ServiceView;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.Json;
import dev.nacre.node.http.Router;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.Set;

/** {@code /nacos/v1/ns/instance}: register, deregister, update, patch, detail, list, beat. */
public final class InstanceApi {
  static final String BASE = "/nacos/v1/ns/instance";

  private final NamingOperations naming;
  private final Json json;
  private final ServiceListJson serviceList = new ServiceListJson();
  private final InstanceWrites writes;
  private final RequestReader reader;
  private final UdpSubscriber udp;
  private final boolean udpToClientIp;

  /** @param udpToClientIp push to {@code clientIP} as given rather than to the request's source */
  public InstanceApi(NamingOperations naming, Json json, InstanceWrites writes, UdpSubscriber udp, boolean udpToClientIp) {
    this.naming = naming;
    this.json = json;
    this.writes = writes;
    this.reader = writes.reader();
    this.udp = udp;
    this.udpToClientIp = udpToClientIp;
  }

  public void register(Router router) {
    router
        .addAsync("POST", BASE, r -> writes.registerAsync(r).thenApply(done -> ApiResponse.ok()))
        .addAsync("DELETE", BASE, r -> writes.deregisterAsync(r).thenApply(done -> ApiResponse.ok()))
        .add("PUT", BASE, r -> ok(writes::update, r))
        .add("PATCH", BASE, r -> ok(writes::patch, r))
        .add("GET", BASE, this::detail)
        .add("GET", BASE + "/list", this::list)
        .addAsync("PUT", BASE + "/beat", writes::beatAsync);
  }

  private static ApiResponse ok(java.util.function.Consumer<ApiRequest> write, ApiRequest r) {
    write.accept(r);
    return ApiResponse.ok();
  }

  private ApiResponse detail(ApiRequest r) {
    return json.response(Views.instanceDetail(naming.getInstance(reader.instanceKey(r))));
  }

  private ApiResponse list(ApiRequest r) {
    ServiceKey service = reader.service(r);
    Set<String> clusters = reader.clusters(r, "clusters");
    Optional<InetSocketAddress> receiver = UdpReceivers.of(r, udpToClientIp);
    ServiceView view = naming.listInstances(
        service, clusters, r.boolParam("healthyOnly").orElse(false), reader.linearizable(r));
    String clustersAsAsked = r.param("clusters", "");
    receiver.ifPresent(to -> udp.listed(service, clusters, clustersAsAsked, to));
    // Nacos echoes the parameter: 1.x clients file the list under the clusters string they sent.
    return serviceList.answer(view, clustersAsAsked);
  }
}
