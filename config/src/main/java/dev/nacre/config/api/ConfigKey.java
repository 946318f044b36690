package dev.nacre.config.api;

import java.util.Objects;

/**
 * What identifies a configuration: namespace (Nacos' tenant), group and dataId. The namespace
 * {@code public} and the empty tenant are one namespace (nacos-client 3.x sends the first, 2.x the
 * second): both are kept as {@code ""}.
 */
public record ConfigKey(String namespace, String group, String dataId) {
  public static final String PUBLIC = "public";
  public static final String DEFAULT_GROUP = "DEFAULT_GROUP";

  public ConfigKey {
    namespace = normalizeNamespace(namespace);
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(dataId, "dataId");
  }

  /** {@code null}, blank and {@code public} are the public namespace, {@code ""}. */
  public static String normalizeNamespace(String namespace) {
    if (namespace == null || namespace.isBlank() || PUBLIC.equals(namespace.trim())) {
      return "";
    }
    return namespace.trim();
  }

  @Override
  public String toString() {
    return dataId + "+" + group + (namespace.isEmpty() ? "" : "+" + namespace);
  }
}
