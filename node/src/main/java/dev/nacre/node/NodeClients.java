package dev.nacre.node;

import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.api.Subscriptions;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.node.client.ClientConnections;
import dev.nacre.node.naming.http.ClientDirectory;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The node's clients for the client API: its gRPC connections (once the client port is open, the
 * last part to start), what they registered in the registry and subscribed in the push core.
 */
final class NodeClients implements ClientDirectory {
  private final Supplier<Optional<ClientConnections>> connections;
  private final NamingOperations naming;
  private final Subscriptions subscriptions;

  NodeClients(Supplier<Optional<ClientConnections>> connections, NamingOperations naming, Subscriptions subscriptions) {
    this.connections = connections;
    this.naming = naming;
    this.subscriptions = subscriptions;
  }

  @Override
  public List<String> clientIds() {
    return connections.get().map(ClientConnections::registeredIds).orElse(List.of());
  }

  @Override
  public Optional<Client> client(String clientId) {
    return connections.get().flatMap(c -> c.describe(clientId))
        .map(c -> new Client(c.id(), c.ip(), c.port(), c.version(), c.lastActiveMillis()));
  }

  @Override
  public List<InstanceKey> instancesOf(String clientId) {
    return naming.clientInstances(clientId);
  }

  @Override
  public List<ServiceKey> subscriptionsOf(String clientId) {
    return subscriptions.servicesOf(clientId);
  }

  @Override
  public List<String> subscribersOf(ServiceKey service) {
    return subscriptions.subscribersOf(service);
  }
}
