package dev.nacre.config.state;

import dev.nacre.config.api.ConfigItem;
import dev.nacre.config.api.ConfigKey;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The current formal, beta and tag contents of every configuration, in memory. Written by the
 * applying thread only, read by any: each map is concurrent and each key's tag map is replaced
 * whole, so a reader sees every item either before or after a change.
 */
final class ConfigState {
  private final ConcurrentHashMap<ConfigKey, ConfigItem> formal = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<ConfigKey, ConfigItem> beta = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<ConfigKey, Map<String, ConfigItem>> tags = new ConcurrentHashMap<>();

  Optional<ConfigItem> formal(ConfigKey key) {
    return Optional.ofNullable(formal.get(key));
  }

  Optional<ConfigItem> beta(ConfigKey key) {
    return Optional.ofNullable(beta.get(key));
  }

  Optional<ConfigItem> tagged(ConfigKey key, String tag) {
    return Optional.ofNullable(tags.getOrDefault(key, Map.of()).get(tag));
  }

  Map<String, ConfigItem> tags(ConfigKey key) {
    return tags.getOrDefault(key, Map.of());
  }

  Collection<ConfigItem> formals() {
    return formal.values();
  }

  int count() {
    return formal.size();
  }

  /** Stores a content in its place (formal, beta or tag, as the item says). */
  void put(ConfigItem item) {
    if (!item.betaIps().isEmpty()) {
      beta.put(item.key(), item);
    } else if (!item.tag().isEmpty()) {
      tags.compute(item.key(), (k, old) -> {
        Map<String, ConfigItem> next = old == null ? new HashMap<>() : new HashMap<>(old);
        next.put(item.tag(), item);
        return Map.copyOf(next);
      });
    } else {
      formal.put(item.key(), item);
    }
  }

  void remove(ConfigItem item) {
    if (!item.betaIps().isEmpty()) {
      beta.remove(item.key());
    } else if (!item.tag().isEmpty()) {
      tags.computeIfPresent(item.key(), (k, old) -> {
        Map<String, ConfigItem> next = new HashMap<>(old);
        next.remove(item.tag());
        return next.isEmpty() ? null : Map.copyOf(next);
      });
    } else {
      formal.remove(item.key());
    }
  }

  /** What a listener of {@code key} could see change: the md5 of each content, by place. */
  Map<String, String> fingerprint(ConfigKey key) {
    Map<String, String> md5s = new HashMap<>();
    formal(key).ifPresent(i -> md5s.put("", i.md5()));
    beta(key).ifPresent(i -> md5s.put("beta", i.md5() + "@" + i.betaIps()));
    tags(key).forEach((tag, i) -> md5s.put("tag:" + tag, i.md5()));
    return md5s;
  }

  /** Keys whose fingerprint differs between this state and {@code other}. */
  Set<ConfigKey> changedKeys(ConfigState other) {
    Set<ConfigKey> keys = new HashSet<>();
    keys.addAll(formal.keySet());
    keys.addAll(beta.keySet());
    keys.addAll(tags.keySet());
    keys.addAll(other.formal.keySet());
    keys.addAll(other.beta.keySet());
    keys.addAll(other.tags.keySet());
    keys.removeIf(k -> fingerprint(k).equals(other.fingerprint(k)));
    return keys;
  }
}
