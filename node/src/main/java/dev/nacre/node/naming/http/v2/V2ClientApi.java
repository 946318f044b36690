package dev.nacre.node.naming.http.v2;

import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.Json;
import dev.nacre.node.http.Router;
import dev.nacre.node.naming.http.ClientDirectory;
import dev.nacre.node.naming.http.RequestReader;
import dev.nacre.node.naming.udp.UdpPushTarget;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /nacos/v2/ns/client/*}: the Nacos 2.x clients connected to this node, what each
 * registered and subscribed, and who registered or subscribes to a service. Each node answers
 * for its own clients, as in Nacos.
 *
 * <p>Unlike Nacos, the {@code ip} and {@code port} filters of the per-service lists apply only
 * when given (Nacos then lists nobody).
 */
public final class V2ClientApi {
  static final String BASE = "/nacos/v2/ns/client";

  private final ClientDirectory clients;
  private final RequestReader reader;
  private final V2Answers answers;

  public V2ClientApi(ClientDirectory clients, Json json) {
    this.clients = clients;
    this.reader = new RequestReader(json);
    this.answers = new V2Answers(json);
  }

  public void register(Router router) {
    router
        .add("GET", BASE + "/list", answers.wrap(r -> answers.ok(clients.clientIds())))
        .add("GET", BASE, answers.wrap(this::detail))
        .add("GET", BASE + "/publish/list", answers.wrap(this::published))
        .add("GET", BASE + "/subscribe/list", answers.wrap(this::subscribed))
        .add("GET", BASE + "/service/publisher/list", answers.wrap(this::publishers))
        .add("GET", BASE + "/service/subscriber/list", answers.wrap(this::subscribers));
  }

  private ApiResponse detail(ApiRequest r) {
    ClientDirectory.Client c = client(r);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("clientId", c.id());
    m.put("ephemeral", true);
    m.put("lastUpdatedTime", c.lastActiveMillis());
    m.put("clientType", "connection");
    m.put("connectType", "GRPC");
    m.put("appName", "-");
    m.put("version", c.version());
    m.put("clientIp", c.ip());
    m.put("clientPort", String.valueOf(c.port()));
    return answers.ok(m);
  }

  private ApiResponse published(ApiRequest r) {
    ClientDirectory.Client c = client(r);
    List<Map<String, Object>> out = new ArrayList<>();
    for (InstanceKey key : clients.instancesOf(c.id())) {
      Map<String, Object> instance = new LinkedHashMap<>();
      instance.put("ip", key.ip());
      instance.put("port", key.port());
      instance.put("cluster", key.cluster());
      Map<String, Object> m = service(key.service());
      m.put("registeredInstance", instance);
      out.add(m);
    }
    return answers.ok(out);
  }

  private ApiResponse subscribed(ApiRequest r) {
    ClientDirectory.Client c = client(r);
    List<Map<String, Object>> out = new ArrayList<>();
    for (ServiceKey service : clients.subscriptionsOf(c.id())) {
      Map<String, Object> subscriber = new LinkedHashMap<>();
      subscriber.put("app", "unknown");
      subscriber.put("agent", c.version());
      subscriber.put("addr", c.ip() + ":" + c.port());
      Map<String, Object> m = service(service);
      m.put("subscriberInfo", subscriber);
      out.add(m);
    }
    return answers.ok(out);
  }

  /** The connections that registered an instance of the service (persistent ones have none). */
  private ApiResponse publishers(ApiRequest r) {
    ServiceKey service = service(r);
    List<Map<String, Object>> out = new ArrayList<>();
    if (!r.boolParam("ephemeral").orElse(true)) {
      return answers.ok(out);
    }
    for (String id : clients.clientIds()) {
      for (InstanceKey key : clients.instancesOf(id)) {
        if (key.service().equals(service) && matches(r, key.ip(), key.port())) {
          out.add(entry(id, key.ip(), key.port()));
        }
      }
    }
    return answers.ok(out);
  }

  private ApiResponse subscribers(ApiRequest r) {
    ServiceKey service = service(r);
    List<Map<String, Object>> out = new ArrayList<>();
    for (String id : clients.subscribersOf(service)) {
      Optional<Map<String, Object>> found = clients.client(id).map(c -> entry(id, c.ip(), c.port()))
          .or(() -> udpReceiver(id));
      found.filter(m -> matches(r, (String) m.get("ip"), (Integer) m.get("port"))).ifPresent(out::add);
    }
    return answers.ok(out);
  }

  private ServiceKey service(ApiRequest r) {
    V2Params.require(r, "serviceName", "String");
    r.intParam("port");
    return reader.service(r);
  }

  private ClientDirectory.Client client(ApiRequest r) {
    V2Params.require(r, "clientId", "String");
    String id = r.param("clientId").orElseThrow();
    return clients.client(id).orElseThrow(() -> new V2Error(404, V2Code.RESOURCE_NOT_FOUND, "client " + id
        + " is not connected to this node; GET " + BASE + "/list lists this node's clients (ask each member"
        + " for its own)"));
  }

  private static boolean matches(ApiRequest r, String ip, int port) {
    return r.param("ip").map(ip::equals).orElse(true) && r.intParam("port").map(p -> p == port).orElse(true);
  }

  /** A 1.x receiver, from its id; empty for anything else (nothing to show). */
  private static Optional<Map<String, Object>> udpReceiver(String id) {
    return UdpPushTarget.receiverOf(id).map(receiver -> entry(id, receiver.getKey(), receiver.getValue()));
  }

  private static Map<String, Object> entry(String clientId, String ip, int port) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("clientId", clientId);
    m.put("ip", ip);
    m.put("port", port);
    return m;
  }

  private static Map<String, Object> service(ServiceKey key) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("namespace", key.namespaceId());
    m.put("group", key.group());
    m.put("serviceName", key.name());
    return m;
  }
}
