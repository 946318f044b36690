package dev.nacre.naming.push;

import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.model.ServiceView;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** The instances of a few services, as a {@link ViewSource}; counts the views it builds. */
final class FakeRegistry implements ViewSource {
  private final Map<ServiceKey, List<Instance>> instances = new ConcurrentHashMap<>();
  final AtomicInteger built = new AtomicInteger();
  volatile ServiceKey broken;

  static ServiceKey service(String name) {
    return new ServiceKey("public", "DEFAULT_GROUP", name);
  }

  static Instance instance(ServiceKey service, String cluster, int port) {
    return new Instance(new InstanceKey(service, cluster, "127.0.0.1", port), 1.0, true, true, true, Map.of());
  }

  void put(Instance instance) {
    instances.compute(instance.key().service(), (k, list) -> {
      List<Instance> next = new ArrayList<>(list == null ? List.of() : list);
      next.removeIf(i -> i.key().equals(instance.key()));
      next.add(instance);
      return List.copyOf(next);
    });
  }

  @Override
  public ServiceView view(ServiceKey service, Set<String> clusters) {
    if (service.equals(broken)) {
      throw new IllegalStateException("broken on purpose");
    }
    built.incrementAndGet();
    List<Instance> hosts = instances.getOrDefault(service, List.of()).stream()
        .filter(i -> clusters.isEmpty() || clusters.contains(i.key().cluster()))
        .toList();
    String checksum = hosts.stream().map(i -> i.key().cluster() + ":" + i.key().port() + ":" + i.healthy())
        .sorted().toList().toString();
    return new ServiceView(service, String.join(",", clusters), hosts, false, 0, checksum);
  }

  static String ports(List<Instance> hosts) {
    return hosts.stream().map(i -> i.key().cluster() + ":" + i.key().port()).sorted().toList().toString();
  }
}
