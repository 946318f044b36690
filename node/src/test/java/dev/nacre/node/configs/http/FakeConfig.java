package dev.nacre.node.configs.http;

import dev.nacre.config.api.ConfigException;
import dev.nacre.config.api.ConfigItem;
import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.ConfigListeners;
import dev.nacre.config.api.ConfigListeners.Listener;
import dev.nacre.config.api.ConfigOperations;
import dev.nacre.config.api.ConfigRead;
import dev.nacre.config.api.Page;
import dev.nacre.config.api.PublishRequest;
import dev.nacre.config.api.RemoveRequest;
import dev.nacre.config.api.Revision;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The config module's API in memory, formal content only (beta and tags are not modelled):
 * publishes apply at once and tell the listeners; it records the listeners, so that tests see a
 * held poll stop listening. Thread-safe.
 */
final class FakeConfig implements ConfigOperations {
  private final Map<ConfigKey, ConfigItem> items = new ConcurrentHashMap<>();
  private final List<Revision> revisions = new CopyOnWriteArrayList<>();
  private final Map<Listener, Map<ConfigKey, String>> listening = new ConcurrentHashMap<>();
  private long index;

  static String md5(String content) {
    try {
      byte[] d = MessageDigest.getInstance("MD5").digest(content.getBytes(StandardCharsets.UTF_8));
      return String.format("%032x", new BigInteger(1, d));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public Optional<ConfigRead> read(ConfigKey key, String clientIp, String tag) {
    return formal(key).map(i -> new ConfigRead(i, false, ""));
  }

  @Override
  public Optional<ConfigItem> formal(ConfigKey key) {
    return Optional.ofNullable(items.get(key));
  }

  @Override
  public Optional<ConfigItem> beta(ConfigKey key) {
    return Optional.empty();
  }

  @Override
  public Optional<ConfigItem> tagged(ConfigKey key, String tag) {
    return Optional.empty();
  }

  @Override
  public String md5For(ConfigKey key, String clientIp, String tag) {
    return formal(key).map(ConfigItem::md5).orElse("");
  }

  @Override
  public synchronized CompletableFuture<ConfigItem> publish(PublishRequest r) {
    if (r.content().length() > 100_000) {
      return CompletableFuture.failedFuture(new ConfigException(ConfigException.Kind.INVALID, "content too large"));
    }
    ConfigItem old = items.get(r.key());
    if (r.casMd5().isPresent() && !r.casMd5().get().equals(old == null ? "" : old.md5())) {
      return CompletableFuture.failedFuture(new ConfigException(ConfigException.Kind.CONFLICT,
          "Cas publish fail, server md5 may have changed."));
    }
    long now = System.currentTimeMillis();
    ConfigItem item = new ConfigItem(r.key(), r.content(), md5(r.content()), r.type(), r.appName(), r.desc(),
        r.tags(), r.encryptedDataKey(), r.user(), r.sourceIp(), "", "", old == null ? now : old.createdMillis(),
        now, ++index);
    items.put(r.key(), item);
    revisions.add(new Revision(index, r.key(), old == null ? "I" : "U", "formal", item.content(), item.md5(),
        item.type(), item.appName(), item.encryptedDataKey(), r.user(), r.sourceIp(), "", now, now));
    tell(r.key());
    return CompletableFuture.completedFuture(item);
  }

  @Override
  public synchronized CompletableFuture<Boolean> remove(RemoveRequest r) {
    ConfigItem old = items.remove(r.key());
    if (old != null) {
      long now = System.currentTimeMillis();
      revisions.add(new Revision(++index, r.key(), "D", "formal", old.content(), old.md5(), old.type(),
          old.appName(), old.encryptedDataKey(), r.user(), r.sourceIp(), "", now, now));
      tell(r.key());
    }
    return CompletableFuture.completedFuture(old != null);
  }

  private void tell(ConfigKey key) {
    listening.forEach((listener, keys) -> {
      if (keys.containsKey(key)) {
        listener.changed(key);
      }
    });
  }

  @Override
  public CompletableFuture<Void> readBarrier() {
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public Page<ConfigItem> search(String namespace, String dataId, String group, String appName, String tags,
      boolean blur, int pageNo, int pageSize) {
    List<ConfigItem> all = items.values().stream()
        .filter(i -> i.key().namespace().equals(ConfigKey.normalizeNamespace(namespace)))
        .filter(i -> matches(dataId, i.key().dataId(), blur) && matches(group, i.key().group(), blur))
        .sorted(Comparator.comparing((ConfigItem i) -> i.key().dataId()))
        .toList();
    return page(all, pageNo, pageSize);
  }

  private static boolean matches(String pattern, String value, boolean blur) {
    if (pattern.isEmpty()) {
      return true;
    }
    return blur ? value.matches(pattern.replace(".", "\\.").replace("*", ".*")) : value.equals(pattern);
  }

  private static <T> Page<T> page(List<T> all, int pageNo, int pageSize) {
    int from = Math.min(all.size(), (pageNo - 1) * pageSize);
    List<T> items = new ArrayList<>(all.subList(from, Math.min(all.size(), from + pageSize)));
    return new Page<>(all.size(), pageNo, (all.size() + pageSize - 1) / pageSize, items);
  }

  @Override
  public Page<Revision> history(ConfigKey key, int pageNo, int pageSize) {
    List<Revision> of = revisions.stream().filter(r -> r.key().equals(key))
        .sorted(Comparator.comparingLong(Revision::id).reversed()).toList();
    return page(of, pageNo, pageSize);
  }

  @Override
  public Optional<Revision> revision(ConfigKey key, long id) {
    return revisions.stream().filter(r -> r.key().equals(key) && r.id() == id).findFirst();
  }

  @Override
  public Optional<Revision> previous(ConfigKey key, long id) {
    return revisions.stream().filter(r -> r.key().equals(key) && r.id() < id)
        .max(Comparator.comparingLong(Revision::id));
  }

  @Override
  public int count() {
    return items.size();
  }

  private final ConfigListeners listeners = new ConfigListeners() {
    @Override
    public void listen(Listener listener, ConfigKey key, String md5) {
      listening.computeIfAbsent(listener, l -> new ConcurrentHashMap<>()).put(key, md5);
    }

    @Override
    public void cancel(Listener listener, ConfigKey key) {
      Map<ConfigKey, String> keys = listening.get(listener);
      if (keys != null) {
        keys.remove(key);
      }
    }

    @Override
    public void cancelAll(Listener listener) {
      listening.remove(listener);
    }

    @Override
    public List<ListenerView> listenersOf(ConfigKey key) {
      List<ListenerView> out = new ArrayList<>();
      listening.forEach((l, keys) -> {
        if (keys.containsKey(key)) {
          out.add(new ListenerView(l.clientId(), l.clientIp(), keys.get(key)));
        }
      });
      return out;
    }

    @Override
    public int count() {
      return listening.values().stream().mapToInt(Map::size).sum();
    }
  };

  ConfigListeners listeners() {
    return listeners;
  }
}
