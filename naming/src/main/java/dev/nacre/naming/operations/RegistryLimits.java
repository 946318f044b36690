package dev.nacre.naming.operations;

import dev.nacre.naming.api.NamingConfig;
import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.registry.RegistryIndex;
import dev.nacre.naming.registry.ServiceSnapshot;
import java.util.Collection;
import java.util.Optional;

/**
 * Refuses registrations that would take a service or a namespace past {@link NamingConfig.Limits},
 * before anything changes. Counts what this node holds now, so concurrent registrations on
 * several nodes may overshoot by a few: a bound against runaway clients, not an exact quota.
 */
final class RegistryLimits {
  private final RegistryIndex index;
  private final NamingConfig.Limits limits;

  RegistryLimits(RegistryIndex index, NamingConfig.Limits limits) {
    this.index = index;
    this.limits = limits;
  }

  /** Admits {@code key} unless it is new and its service (or, for a new service, its namespace) is full. */
  void admit(InstanceKey key) {
    admit(key.service(), isNew(key) ? 1 : 0);
  }

  /** Admits a batch for one service: the instances it adds that the service does not hold yet. */
  void admitBatch(ServiceKey service, Collection<Instance> instances) {
    admit(service, (int) instances.stream().filter(i -> isNew(i.key())).count());
  }

  /** Admits an explicit service creation unless its namespace is full. */
  void admitService(ServiceKey service) {
    if (!index.service(service).map(ServiceSnapshot::exists).orElse(false)) {
      admitNewService(service);
    }
  }

  private void admitNewService(ServiceKey service) {
    int services = index.serviceCount(service.namespaceId());
    if (services >= limits.maxServicesPerNamespace()) {
      throw NamingException.invalid("namespace " + service.namespaceId() + " holds " + services
          + " services, the most nacre.naming.max-services-per-namespace allows; service "
          + service.groupedName() + " was not created. Remove unused services or raise the limit.");
    }
  }

  private void admit(ServiceKey service, int added) {
    if (added == 0) {
      return;
    }
    Optional<ServiceSnapshot> held = index.service(service);
    if (held.isEmpty() || !held.get().exists()) {
      admitNewService(service);
    }
    int count = held.map(ServiceSnapshot::instanceCount).orElse(0);
    if (count + added > limits.maxInstancesPerService()) {
      throw NamingException.invalid("service " + service.groupedName() + " in namespace "
          + service.namespaceId() + " holds " + count + " instances; " + added + " more would pass "
          + limits.maxInstancesPerService() + ", the most nacre.naming.max-instances-per-service allows."
          + " Deregister unused instances or raise the limit.");
    }
  }

  private boolean isNew(InstanceKey key) {
    return index.instance(key, true).isEmpty() && index.instance(key, false).isEmpty();
  }
}
