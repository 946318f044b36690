package dev.nacre.node;

import dev.nacre.naming.Naming;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.node.client.ClientGrpcServer;
import dev.nacre.node.status.NodeCounts;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** The node's counts, each read from the part that holds it when asked. */
final class LiveCounts implements NodeCounts {
  private final Naming registry;
  private final Predicate<ServiceKey> probesHere;
  private final Supplier<Optional<ClientGrpcServer>> clientPort;

  /** @param clientPort the client port once open (it opens last: no client before it) */
  LiveCounts(Naming registry, Predicate<ServiceKey> probesHere, Supplier<Optional<ClientGrpcServer>> clientPort) {
    this.registry = registry;
    this.probesHere = probesHere;
    this.clientPort = clientPort;
  }

  @Override
  public int subscriptions() {
    return registry.push().size(); // gRPC subscribers and 1.x UDP receivers alike
  }

  @Override
  public int clients() {
    return clientPort.get().map(port -> port.connections().registeredIds().size()).orElse(0);
  }

  @Override
  public long responsibleInstances() {
    return registry.responsibleInstances(probesHere);
  }
}
