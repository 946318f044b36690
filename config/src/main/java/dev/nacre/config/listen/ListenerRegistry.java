package dev.nacre.config.listen;

import dev.nacre.config.api.ConfigException;
import dev.nacre.config.api.ConfigException.Kind;
import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.ConfigListeners;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listeners of this member, by key, with per-client and per-member limits. Registration is
 * serialized (one lock); {@link #changed} reads the concurrent per-key maps without it, so the
 * applying thread never waits on a registration.
 */
public final class ListenerRegistry implements ConfigListeners {
  private static final Logger log = LoggerFactory.getLogger(ListenerRegistry.class);

  private final int maxPerClient;
  private final int maxTotal;
  private final ConcurrentHashMap<ConfigKey, ConcurrentHashMap<Listener, String>> byKey = new ConcurrentHashMap<>();
  private final Map<Listener, Map<ConfigKey, String>> byListener = new HashMap<>();
  private final Map<String, Integer> perClient = new HashMap<>();
  private int total;

  public ListenerRegistry(int maxPerClient, int maxTotal) {
    this.maxPerClient = maxPerClient;
    this.maxTotal = maxTotal;
  }

  @Override
  public synchronized void listen(Listener listener, ConfigKey key, String md5) {
    Map<ConfigKey, String> keys = byListener.get(listener);
    boolean known = keys != null && keys.containsKey(key);
    if (!known) {
      int ofClient = perClient.getOrDefault(listener.clientId(), 0);
      if (ofClient >= maxPerClient) {
        throw new ConfigException(Kind.LIMITED, "client " + listener.clientId() + " listens to " + ofClient
            + " configurations, the most one client may (nacre config maxListenersPerClient); cancel some first");
      }
      if (total >= maxTotal) {
        throw new ConfigException(Kind.LIMITED, "this member holds " + total + " listened configurations, the most"
            + " it may (nacre config maxListeners); connect the client to another member or raise the limit");
      }
      perClient.merge(listener.clientId(), 1, Integer::sum);
      total++;
    }
    byListener.computeIfAbsent(listener, l -> new HashMap<>()).put(key, md5);
    byKey.computeIfAbsent(key, k -> new ConcurrentHashMap<>()).put(listener, md5);
  }

  @Override
  public synchronized void cancel(Listener listener, ConfigKey key) {
    Map<ConfigKey, String> keys = byListener.get(listener);
    if (keys == null || keys.remove(key) == null) {
      return;
    }
    if (keys.isEmpty()) {
      byListener.remove(listener);
    }
    forget(listener, key);
  }

  @Override
  public synchronized void cancelAll(Listener listener) {
    Map<ConfigKey, String> keys = byListener.remove(listener);
    if (keys != null) {
      keys.keySet().forEach(key -> forget(listener, key));
    }
  }

  private void forget(Listener listener, ConfigKey key) {
    byKey.computeIfPresent(key, (k, listeners) -> {
      listeners.remove(listener);
      return listeners.isEmpty() ? null : listeners;
    });
    perClient.computeIfPresent(listener.clientId(), (c, n) -> n == 1 ? null : n - 1);
    total--;
  }

  @Override
  public List<ListenerView> listenersOf(ConfigKey key) {
    List<ListenerView> views = new ArrayList<>();
    byKey.getOrDefault(key, new ConcurrentHashMap<>())
        .forEach((l, md5) -> views.add(new ListenerView(l.clientId(), l.clientIp(), md5)));
    return views;
  }

  @Override
  public synchronized int count() {
    return total;
  }

  /** Tells every listener of {@code key}; from the applying thread. A failing listener is logged and skipped. */
  public void changed(ConfigKey key) {
    ConcurrentHashMap<Listener, String> listeners = byKey.get(key);
    if (listeners == null) {
      return;
    }
    for (Listener listener : listeners.keySet()) {
      try {
        listener.changed(key);
      } catch (RuntimeException e) {
        log.warn("Listener {} of {} failed on a change: {}", listener.clientId(), key, e.toString());
      }
    }
  }
}
