package dev.nacre.naming.operations;

import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.ServiceView;
import dev.nacre.naming.registry.ServiceSnapshot;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What {@code /instance/list} returns, with Nacos 2.x' rules: only enabled instances of the asked
 * clusters count; when healthy/total among them is at or below the protection threshold
 * (negative thresholds count as 0, so an all-unhealthy service trips even threshold 0), every one
 * of them is returned and marked healthy, so that clients filtering on health keep a list;
 * otherwise the unhealthy ones are dropped when only healthy ones were asked for.
 *
 * <p>The answer is a pure function of the snapshot and the filter, except for its time: it is
 * computed once per snapshot and filter (kept in the snapshot's memo, with the checksum and the
 * encodings renderers add) and stamped with the time per request.
 */
final class InstanceSelection {
  /** What a selection depends on besides the snapshot. */
  private record Filter(Set<String> clusters, boolean healthyOnly) {}

  private InstanceSelection() {}

  static ServiceView select(
      ServiceSnapshot service, Set<String> clusters, boolean healthyOnly, long nowMillis) {
    if (service.clusterNames().isEmpty()) {
      return compute(service, clusters, healthyOnly).at(nowMillis); // no instances: nothing to keep
    }
    Filter filter = new Filter(Set.copyOf(clusters), healthyOnly);
    return service.memo(filter, s -> compute(s, filter.clusters(), healthyOnly)).at(nowMillis);
  }

  /** The selection as it is computed without the memo (the reference for the cached one). */
  static ServiceView compute(ServiceSnapshot service, Set<String> clusters, boolean healthyOnly) {
    List<Instance> considered = service.instances(clusters).stream().filter(Instance::enabled).toList();
    long healthy = considered.stream().filter(Instance::healthy).count();
    float threshold = Math.max(0f, service.info().protectThreshold());
    boolean protect = !considered.isEmpty() && (float) healthy / considered.size() <= threshold;
    List<Instance> hosts;
    if (protect) {
      hosts = considered.stream().map(i -> i.healthy() ? i : i.withHealthy(true)).toList();
    } else if (healthyOnly) {
      hosts = considered.stream().filter(Instance::healthy).toList();
    } else {
      hosts = considered;
    }
    return new ServiceView(
        service.key(), String.join(",", new TreeSet<>(clusters)), hosts, protect, 0L, checksum(hosts));
  }

  /** Stable across nodes and restarts: a digest of the canonical text of the hosts. */
  static String checksum(List<Instance> hosts) {
    StringBuilder text = new StringBuilder();
    for (Instance i : hosts) {
      text.append(i.key().instanceId()).append('|').append(i.weight()).append('|')
          .append(i.healthy()).append('|').append(i.enabled()).append('|').append(i.ephemeral())
          .append('|').append(new TreeMap<>(i.metadata())).append('\n');
    }
    try {
      MessageDigest md5 = MessageDigest.getInstance("MD5");
      return HexFormat.of().formatHex(md5.digest(text.toString().getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK lacks MD5", e);
    }
  }
}
