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
    // Interned: a registry holds these names once per instance otherwise (decoded replicas and
    // parsed requests each bring their own copies), a third of an instance's heap.
    namespaceId = Objects.requireNonNull(namespaceId, "namespaceId").intern();
    group = Objects.requireNonNull(group, "group").intern();
    name = Objects.requireNonNull(name, "name").intern();
  }

  /** {@code group@@name}, as Nacos names services in responses. */
  public String groupedName() {
    return group + GROUP_SEPARATOR + name;
  }
}
