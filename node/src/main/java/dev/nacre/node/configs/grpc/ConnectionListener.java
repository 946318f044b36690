package dev.nacre.node.configs.grpc;

import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.ConfigListeners;
import dev.nacre.node.client.ClientConnection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one gRPC connection listens to: per key, the names as the client sent them (its tenant
 * may be "public" or "") and the md5 the client is known to hold. Thread-safe.
 */
final class ConnectionListener implements ConfigListeners.Listener {
  /** A listened key as the client named it, the md5 it holds and the tag it reads. */
  record Listened(String dataId, String group, String tenant, String md5, String tag) {}

  private final ClientConnection connection;
  private final ChangePushes pushes;
  private final Map<ConfigKey, Listened> keys = new ConcurrentHashMap<>();
  /** Keys with a notification scheduled or in flight: changes meanwhile merge into it. */
  private final Set<ConfigKey> pending = ConcurrentHashMap.newKeySet();

  ConnectionListener(ClientConnection connection, ChangePushes pushes) {
    this.connection = connection;
    this.pushes = pushes;
  }

  ClientConnection connection() {
    return connection;
  }

  @Override
  public String clientId() {
    return connection.id();
  }

  @Override
  public String clientIp() {
    return connection.remoteIp();
  }

  @Override
  public void changed(ConfigKey key) {
    if (keys.containsKey(key)) {
      schedule(key);
    }
  }

  /** Schedules a notification of {@code key} unless one is already waiting. */
  void schedule(ConfigKey key) {
    if (pending.add(key)) {
      pushes.schedule(this, key, System.nanoTime());
    }
  }

  void listen(ConfigKey key, Listened listened) {
    keys.put(key, listened);
  }

  void cancel(ConfigKey key) {
    keys.remove(key);
  }

  Optional<Listened> listened(ConfigKey key) {
    return Optional.ofNullable(keys.get(key));
  }

  /** The client now holds {@code md5} for {@code key} (it read it, or acknowledged a notification). */
  void known(ConfigKey key, String md5) {
    keys.computeIfPresent(key, (k, l) -> new Listened(l.dataId(), l.group(), l.tenant(), md5, l.tag()));
  }

  /** The notification of {@code key} is over; a change after this schedules a new one. */
  void done(ConfigKey key) {
    pending.remove(key);
  }

  int size() {
    return keys.size();
  }

  @Override
  public String toString() {
    return "grpc:" + connection.id();
  }
}
