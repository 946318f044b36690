package dev.nacre.naming.model;

import java.util.Objects;

/**
 * Identity of a service: namespace, group and name. Nacos writes the last two as
 * {@code group@@name}.
 */
public record ServiceKey(String namespaceId, String group, String name) {
  public static final String DEFAULT_NAMESPACE = "public";
  public static final String DEFAULT_GROUP = "DEFAULT_GROUP";
  public static final String GROUP_SEPARATOR = "@@";

  public ServiceKey {
    Objects.requireNonNull(namespaceId, "namespaceId");
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(name, "name");
  }

  /** {@code group@@name}, as Nacos names services in responses. */
  public String groupedName() {
    return group + GROUP_SEPARATOR + name;
  }
}
