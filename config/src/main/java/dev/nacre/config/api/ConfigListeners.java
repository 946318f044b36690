package dev.nacre.config.api;

import java.util.List;

/**
 * Who listens to which configuration on this member, over every transport (gRPC connections,
 * HTTP long polls). The domain calls {@link Listener#changed} after applying a change of a key the
 * listener holds (formal, beta or tag content); the listener compares the md5 its client knows
 * ({@link ConfigOperations#md5For}) and tells its client. Limits per client and per member are
 * refused with {@link ConfigException.Kind#LIMITED}.
 */
public interface ConfigListeners {

  /** A client that listens; one per gRPC connection or long poll. */
  interface Listener {
    /** The connection id or the long poll's client, for the console and the per-client limit. */
    String clientId();

    String clientIp();

    /** Called on the applying thread: must not block (hand the work off). */
    void changed(ConfigKey key);
  }

  /** Who listens on a key, for the console: the client's id and address, and the md5 it knows. */
  record ListenerView(String clientId, String clientIp, String md5) {}

  /** Adds {@code key} to what {@code listener} hears of, knowing {@code md5}. */
  void listen(Listener listener, ConfigKey key, String md5);

  /** Stops {@code listener} hearing of {@code key}. */
  void cancel(Listener listener, ConfigKey key);

  /** Stops {@code listener} hearing of anything (its connection closed). */
  void cancelAll(Listener listener);

  List<ListenerView> listenersOf(ConfigKey key);

  /** Listened keys summed over listeners on this member. */
  int count();
}
