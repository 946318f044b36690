package dev.nacre.node.config;

import java.util.HashSet;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * Typed reads over flat {@code key=value} settings, remembering which keys were read so that a
 * misspelt key is reported instead of silently ignored.
 */
final class Settings {
  private final Map<String, String> values;
  private final Set<String> read = new HashSet<>();

  Settings(Properties properties) {
    this.values = new TreeMap<>();
    properties.stringPropertyNames().forEach(k -> values.put(k.trim(), properties.getProperty(k).trim()));
  }

  String string(String key, String fallback) {
    read.add(key);
    String v = values.get(key);
    return v == null || v.isEmpty() ? fallback : v;
  }

  int integer(String key, int fallback, int min, int max) {
    return (int) longValue(key, fallback, min, max);
  }

  long longValue(String key, long fallback, long min, long max) {
    String raw = string(key, null);
    if (raw == null) {
      return fallback;
    }
    long v;
    try {
      v = Long.parseLong(raw);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("setting " + key + "=" + raw + " is not a whole number");
    }
    if (v < min || v > max) {
      throw new IllegalArgumentException("setting " + key + "=" + raw + " is outside " + min + ".." + max);
    }
    return v;
  }

  boolean bool(String key, boolean fallback) {
    String raw = string(key, null);
    if (raw == null) {
      return fallback;
    }
    if (!raw.equalsIgnoreCase("true") && !raw.equalsIgnoreCase("false")) {
      throw new IllegalArgumentException("setting " + key + "=" + raw + " is not true or false");
    }
    return Boolean.parseBoolean(raw);
  }

  /** Keys under {@code prefix} that no reader asked for: most likely typos. */
  Set<String> unknownKeys(String prefix) {
    Set<String> unknown = new HashSet<>();
    for (String k : values.keySet()) {
      if (k.startsWith(prefix) && !read.contains(k)) {
        unknown.add(k);
      }
    }
    return unknown;
  }
}
