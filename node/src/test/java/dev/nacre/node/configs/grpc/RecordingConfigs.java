package dev.nacre.node.configs.grpc;

import dev.nacre.config.api.ConfigException;
import dev.nacre.config.api.ConfigItem;
import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.ConfigListeners;
import dev.nacre.config.api.ConfigOperations;
import dev.nacre.config.api.ConfigRead;
import dev.nacre.config.api.Page;
import dev.nacre.config.api.PublishRequest;
import dev.nacre.config.api.RemoveRequest;
import dev.nacre.config.api.Revision;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An in-memory stand-in for the config module: formal and beta contents (no tags), compare-and-set,
 * listeners told of every change, and a record of every call. A publish fails with
 * {@link #failNext} once when set.
 */
final class RecordingConfigs implements ConfigOperations, ConfigListeners {
  final Map<ConfigKey, ConfigItem> formal = new ConcurrentHashMap<>();
  final Map<ConfigKey, ConfigItem> beta = new ConcurrentHashMap<>();
  final Map<ConfigKey, Set<Listener>> listening = new ConcurrentHashMap<>();
  final List<String> calls = new CopyOnWriteArrayList<>();
  final List<PublishRequest> publishes = new CopyOnWriteArrayList<>();
  volatile ConfigException failNext;
  private long revision;

  static String md5(String content) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(content.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public Optional<ConfigRead> read(ConfigKey key, String clientIp, String tag) {
    ConfigItem b = beta.get(key);
    if (b != null && Arrays.asList(b.betaIps().split(",")).contains(clientIp)) {
      return Optional.of(new ConfigRead(b, true, ""));
    }
    return Optional.ofNullable(formal.get(key)).map(i -> new ConfigRead(i, false, ""));
  }

  @Override
  public Optional<ConfigItem> formal(ConfigKey key) {
    return Optional.ofNullable(formal.get(key));
  }

  @Override
  public Optional<ConfigItem> beta(ConfigKey key) {
    return Optional.ofNullable(beta.get(key));
  }

  @Override
  public Optional<ConfigItem> tagged(ConfigKey key, String tag) {
    return Optional.empty();
  }

  /** Runs once, right after the next md5 is read: a change applied just after that read. */
  volatile Runnable afterNextMd5Read;

  @Override
  public String md5For(ConfigKey key, String clientIp, String tag) {
    String md5 = read(key, clientIp, tag).map(r -> r.item().md5()).orElse("");
    Runnable after = afterNextMd5Read;
    if (after != null) {
      afterNextMd5Read = null;
      after.run();
    }
    return md5;
  }

  @Override
  public synchronized CompletableFuture<ConfigItem> publish(PublishRequest r) {
    publishes.add(r);
    calls.add("publish " + r.key());
    ConfigException failure = failNext;
    if (failure != null) {
      failNext = null;
      return CompletableFuture.failedFuture(failure);
    }
    String current = Optional.ofNullable(formal.get(r.key())).map(ConfigItem::md5).orElse("");
    if (r.casMd5().isPresent() && !r.casMd5().get().equals(current)) {
      return CompletableFuture.failedFuture(new ConfigException(ConfigException.Kind.CONFLICT,
          "Cas publish fail, server md5 may have changed."));
    }
    ConfigItem item = new ConfigItem(r.key(), r.content(), md5(r.content()), r.type().isEmpty() ? "text" : r.type(),
        r.appName(), r.desc(), r.tags(), r.encryptedDataKey(), r.user(), r.sourceIp(), r.betaIps().orElse(""),
        r.tag().orElse(""), 1, 2, ++revision);
    (r.betaIps().isPresent() ? beta : formal).put(r.key(), item);
    changed(r.key());
    return CompletableFuture.completedFuture(item);
  }

  @Override
  public CompletableFuture<Boolean> remove(RemoveRequest r) {
    calls.add("remove " + r.key());
    boolean removed = formal.remove(r.key()) != null;
    beta.remove(r.key());
    changed(r.key());
    return CompletableFuture.completedFuture(removed);
  }

  /** Tells the key's listeners, as the domain does after applying a change. */
  void changed(ConfigKey key) {
    listening.getOrDefault(key, Set.of()).forEach(l -> l.changed(key));
  }

  @Override
  public CompletableFuture<Void> readBarrier() {
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public Page<ConfigItem> search(String namespace, String dataId, String group, String appName, String tags,
      boolean blur, int pageNo, int pageSize) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Page<Revision> history(ConfigKey key, int pageNo, int pageSize) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Optional<Revision> revision(ConfigKey key, long id) {
    return Optional.empty();
  }

  @Override
  public Optional<Revision> previous(ConfigKey key, long id) {
    return Optional.empty();
  }

  @Override
  public int count() {
    return formal.size();
  }

  @Override
  public void listen(Listener listener, ConfigKey key, String md5) {
    calls.add("listen " + key + " " + md5);
    listening.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(listener);
  }

  @Override
  public void cancel(Listener listener, ConfigKey key) {
    calls.add("cancel " + key);
    listening.getOrDefault(key, Set.of()).remove(listener);
  }

  @Override
  public void cancelAll(Listener listener) {
    calls.add("cancelAll " + listener.clientId());
    listening.values().forEach(s -> s.remove(listener));
  }

  @Override
  public List<ListenerView> listenersOf(ConfigKey key) {
    List<ListenerView> out = new ArrayList<>();
    listening.getOrDefault(key, Set.of()).forEach(l -> out.add(new ListenerView(l.clientId(), l.clientIp(), "")));
    return out;
  }

  /** ConfigListeners' count and ConfigOperations' count share a signature: listened keys here. */
  int listened() {
    return listening.values().stream().mapToInt(Set::size).sum();
  }
}
