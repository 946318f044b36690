package dev.nacre.node.configs.grpc;

import static dev.nacre.node.client.ClientRequestHandlers.now;

import dev.nacre.config.api.ConfigListeners;
import dev.nacre.config.api.ConfigOperations;
import dev.nacre.node.client.ClientRequestHandlers;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * The configuration requests of the Nacos 2.x/3.x client protocol, as the client port answers
 * them: queries, publishes (formal, beta, tag, compare-and-set), removes, and batch listens with
 * change notifications pushed on the connection's stream. They name their namespace in
 * {@code tenant}. Combine with the naming requests through
 * {@link ClientRequestHandlers#combine(ClientRequestHandlers.Factory...)}.
 */
public final class ConfigClientRequests {
  static final String QUERY = "ConfigQueryRequest";
  static final String PUBLISH = "ConfigPublishRequest";
  static final String REMOVE = "ConfigRemoveRequest";
  static final String LISTEN = "ConfigBatchListenRequest";
  static final String METRIC = "ClientConfigMetricRequest";

  private ConfigClientRequests() {}

  /**
   * The handlers on {@code ops}; listeners in {@code listeners}, one per connection, cancelled
   * when it closes. A change notification waits {@code pushAckTimeout} for the client's answer,
   * and is retried up to 5 times (1 s, then doubling up to 10 s); {@code observer} is told of each
   * outcome.
   */
  public static ClientRequestHandlers.Factory on(String nodeId, ConfigOperations ops, ConfigListeners listeners,
      Duration pushAckTimeout, ConfigPushObserver observer) {
    return on(nodeId, ops, listeners, ChangePushes.Retry.of(pushAckTimeout), observer);
  }

  static ClientRequestHandlers.Factory on(String nodeId, ConfigOperations ops, ConfigListeners listeners,
      ChangePushes.Retry retry, ConfigPushObserver observer) {
    return (codec, connections) -> {
      ChangePushes pushes = new ChangePushes(nodeId, ops, codec, connections.timer(), retry, observer);
      ListenHandlers listens = new ListenHandlers(ops, listeners, codec, connections, pushes);
      ConfigHandlers configs = new ConfigHandlers(ops, codec, listens);
      return new ClientRequestHandlers(
          Map.of(
              QUERY, now(configs::query),
              PUBLISH, configs::publish,
              REMOVE, configs::remove,
              LISTEN, now(listens::listen),
              METRIC, now(configs::metric)),
          Set.of(PUBLISH, REMOVE),
          Set.of(QUERY, LISTEN),
          // A batch listen names no tenant itself: its first key's, as Nacos checks it (the client
          // sends the keys of one namespace together).
          Map.of(QUERY, "/tenant", PUBLISH, "/tenant", REMOVE, "/tenant", LISTEN, "/configListenContexts/0/tenant"));
    };
  }
}
