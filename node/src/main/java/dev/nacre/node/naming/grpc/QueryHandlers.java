package dev.nacre.node.naming.grpc;

import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.api.Subscriptions;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.model.ServicePage;
import dev.nacre.naming.model.ServiceView;
import dev.nacre.node.client.ClientConnection;
import dev.nacre.node.client.ClientConnections;
import dev.nacre.node.client.PayloadCodec;
import dev.nacre.node.client.PayloadCodec.BadBodyException;
import dev.nacre.node.client.Replies;
import dev.nacre.node.client.Replies.Reply;
import dev.nacre.node.naming.grpc.NamingRequests.ServiceListRequest;
import dev.nacre.node.naming.grpc.NamingRequests.ServiceQueryRequest;
import dev.nacre.node.naming.grpc.NamingRequests.SubscribeServiceRequest;
import dev.nacre.node.naming.selector.ServiceListSelector;
import dev.nacre.proto.nacos.Payload;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads over gRPC: {@code ServiceQueryRequest}, {@code ServiceListRequest} (with its selector,
 * see {@link ServiceListSelector}), and
 * {@code SubscribeServiceRequest}, which answers the current list and (when the node runs a push
 * core) keeps the connection subscribed. Disabled instances are never listed.
 */
final class QueryHandlers {
  private final NamingOperations naming;
  private final PayloadCodec codec;
  private final Optional<Subscriptions> subscriptions;
  private final ClientConnections connections;
  private final Map<String, StreamPushTarget> targets = new ConcurrentHashMap<>();
  private final java.time.Duration pushTimeout;

  QueryHandlers(NamingOperations naming, PayloadCodec codec, Optional<Subscriptions> subscriptions,
      ClientConnections connections, java.time.Duration pushTimeout) {
    this.naming = naming;
    this.pushTimeout = pushTimeout;
    this.codec = codec;
    this.subscriptions = subscriptions;
    this.connections = connections;
    connections.onClose(this::closed);
  }

  Reply query(ClientConnection connection, Payload payload) throws BadBodyException {
    ServiceQueryRequest r = codec.read(payload, ServiceQueryRequest.class);
    try {
      ServiceView view = naming.listInstances(
          r.serviceKey(), NamingRequests.clusters(r.cluster()), r.healthyOnly(), false);
      return withServiceInfo("QueryServiceResponse", view, r.cluster());
    } catch (NamingException e) {
      return NamingReplies.refused(codec, "QueryServiceResponse", e);
    }
  }

  Reply list(ClientConnection connection, Payload payload) throws BadBodyException {
    ServiceListRequest r = codec.read(payload, ServiceListRequest.class);
    try {
      // The key's name is unused; only its namespace and group count.
      ServiceKey scope = NamingRequests.service(r.namespace(), r.groupName(), "");
      // Dubbo asks for page 0 of Integer.MAX_VALUE names; Nacos reads a page below 1 as the first.
      ServicePage page = ServiceListSelector.parse(r.selector())
          .page(naming, scope.namespaceId(), scope.group(), Math.max(1, r.pageNo()), r.pageSize());
      Reply ok = Replies.ok(codec, "ServiceListResponse");
      ok.body().put("count", page.count());
      page.names().forEach(ok.body().putArray("serviceNames")::add);
      if (page.names().isEmpty()) {
        ok.body().putArray("serviceNames");
      }
      return ok;
    } catch (NamingException e) {
      return NamingReplies.refused(codec, "ServiceListResponse", e);
    }
  }

  Reply subscribe(ClientConnection connection, Payload payload) throws BadBodyException {
    SubscribeServiceRequest r = codec.read(payload, SubscribeServiceRequest.class);
    String type = "SubscribeServiceResponse";
    try {
      ServiceKey service = r.serviceKey();
      ServiceView view = naming.listInstances(service, NamingRequests.clusters(r.clusters()), false, false);
      if (subscriptions.isPresent()) {
        StreamPushTarget target = targets.computeIfAbsent(connection.id(), id -> new StreamPushTarget(
            connection, codec, pushTimeout, connections.timer()));
        if (r.subscribe()) {
          target.subscribed(service, r.clusters());
          subscriptions.get().subscribe(service, NamingRequests.clusters(r.clusters()), target);
        } else {
          subscriptions.get().unsubscribe(service, connection.id());
          target.unsubscribed(service);
        }
        // Closed while subscribing: the close listeners may have run before the subscription.
        connections.afterWrite(connection);
      }
      Reply ok = withServiceInfo(type, view, r.clusters());
      ok.body().put("message", "success");
      return ok;
    } catch (NamingException e) {
      return NamingReplies.refused(codec, type, e);
    }
  }

  private void closed(String connectionId) {
    targets.remove(connectionId);
    subscriptions.ifPresent(s -> s.removeClient(connectionId));
  }

  private Reply withServiceInfo(String type, ServiceView view, String clusters) {
    Reply ok = Replies.ok(codec, type);
    ok.body().set("serviceInfo", ServiceInfoJson.serviceInfo(codec, view, clusters == null ? "" : clusters));
    return ok;
  }
}
