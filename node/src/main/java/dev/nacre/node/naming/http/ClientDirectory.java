package dev.nacre.node.naming.http;

import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import java.util.List;
import java.util.Optional;

/**
 * The clients of this node as the client and console APIs show them: Nacos 2.x connections with
 * what each registered and subscribed, and the subscribers of each service (1.x UDP receivers
 * among them, as {@code udp:ip:port}). Each node knows only its own clients. Thread-safe; every
 * call reads the current state.
 */
public interface ClientDirectory {
  /** A connected client; {@code lastActiveMillis} is clock millis of its last request or answer. */
  record Client(String id, String ip, int port, String version, long lastActiveMillis) {}

  /** Ids of the registered client connections, sorted. */
  List<String> clientIds();

  /** A registered connection; empty when none has this id. */
  Optional<Client> client(String clientId);

  /** The ephemeral instances a connection registered here, sorted by instance id. */
  List<InstanceKey> instancesOf(String clientId);

  /** The services a client subscribes to here, sorted. */
  List<ServiceKey> subscriptionsOf(String clientId);

  /** The clients subscribed to a service here, by client id, sorted. */
  List<String> subscribersOf(ServiceKey service);

  /** None: a node part that has no clients yet. */
  ClientDirectory NONE = new ClientDirectory() {
    @Override
    public List<String> clientIds() {
      return List.of();
    }

    @Override
    public Optional<Client> client(String clientId) {
      return Optional.empty();
    }

    @Override
    public List<InstanceKey> instancesOf(String clientId) {
      return List.of();
    }

    @Override
    public List<ServiceKey> subscriptionsOf(String clientId) {
      return List.of();
    }

    @Override
    public List<String> subscribersOf(ServiceKey service) {
      return List.of();
    }
  };
}
