package dev.nacre.node.naming.grpc;

import static dev.nacre.node.client.ClientRequestHandlers.now;

import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.api.Subscriptions;
import dev.nacre.naming.writes.InstanceWriteRouter;
import dev.nacre.node.client.ClientRequestHandlers;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The naming requests of the Nacos 2.x client protocol, as the client port answers them:
 * registrations (ephemeral ones owned by the connection, persistent ones through the replicated
 * log), queries, service lists and subscriptions with pushes.
 */
public final class NamingClientRequests {
  private NamingClientRequests() {}

  /**
   * The handlers on {@code naming}; subscriptions (and pushes) when a push core is given, each
   * push failing after {@code pushTimeout} without the client's answer. A connection's ephemeral
   * instances go when it closes.
   */
  public static ClientRequestHandlers.Factory on(String nodeName, NamingOperations naming,
      InstanceWriteRouter writes, Optional<Subscriptions> subscriptions, Duration pushTimeout,
      int metadataMaxLength) {
    return (codec, connections) -> {
      connections.onClose(naming::removeClient);
      InstanceHandlers instances = new InstanceHandlers(nodeName, writes, codec, metadataMaxLength,
          connections, new CpWritesInFlight());
      QueryHandlers queries = new QueryHandlers(naming, codec, subscriptions, connections, pushTimeout);
      return new ClientRequestHandlers(
          Map.of(
              "InstanceRequest", instances::instance,
              "PersistentInstanceRequest", instances::persistent,
              "BatchInstanceRequest", now(instances::batch),
              "ServiceQueryRequest", now(queries::query),
              "ServiceListRequest", now(queries::list),
              "SubscribeServiceRequest", now(queries::subscribe)),
          Set.of("InstanceRequest", "PersistentInstanceRequest", "BatchInstanceRequest"),
          Set.of("ServiceQueryRequest", "ServiceListRequest", "SubscribeServiceRequest"));
    };
  }
}
