package dev.nacre.node.naming.grpc;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nacre.naming.api.PushTarget;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.model.ServiceView;
import dev.nacre.node.client.ClientConnection;
import dev.nacre.node.client.PayloadCodec;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Pushes to a Nacos 2.x client over its connection's stream: a {@code NotifySubscriberRequest}
 * with the full list, acknowledged by the client's {@code NotifySubscriberResponse} with the same
 * request id. Thread-safe.
 */
final class StreamPushTarget implements PushTarget {
  private final ClientConnection connection;
  private final PayloadCodec codec;
  private final Duration timeout;
  private final ScheduledExecutorService timer;
  // The clusters string exactly as the client subscribed with it: part of its cache key.
  private final Map<ServiceKey, String> clustersAsAsked = new ConcurrentHashMap<>();

  StreamPushTarget(ClientConnection connection, PayloadCodec codec, Duration timeout,
      ScheduledExecutorService timer) {
    this.connection = connection;
    this.codec = codec;
    this.timeout = timeout;
    this.timer = timer;
  }

  void subscribed(ServiceKey service, String clusters) {
    clustersAsAsked.put(service, clusters == null ? "" : clusters);
  }

  void unsubscribed(ServiceKey service) {
    clustersAsAsked.remove(service);
  }

  @Override
  public String clientId() {
    return connection.id();
  }

  @Override
  public CompletableFuture<Void> push(ServiceView view) {
    ObjectNode body = codec.object();
    body.put("namespace", view.service().namespaceId());
    body.put("serviceName", view.service().name());
    body.put("groupName", view.service().group());
    String clusters = clustersAsAsked.getOrDefault(view.service(), view.clusters());
    body.set("serviceInfo", ServiceInfoJson.serviceInfo(codec, view, clusters));
    body.put("module", "naming");
    body.putObject("headers");
    CompletableFuture<ObjectNode> answer;
    try {
      answer = connection.request("NotifySubscriberRequest", body, timeout, timer);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return answer.thenApply(reply -> {
      int code = reply.path("resultCode").asInt(200);
      if (code != 200) {
        throw new IllegalStateException("client " + connection.id() + " refused the push of "
            + view.service().groupedName() + ": " + reply.path("message").asText(""));
      }
      return null;
    });
  }

  @Override
  public String toString() {
    return "grpc:" + connection.id();
  }
}
