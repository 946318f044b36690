package dev.nacre.naming.operations;

import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.ephemeral.EphemeralRecord;
import dev.nacre.naming.ephemeral.EphemeralStore;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.validate.NamingValidator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ephemeral instances that belong to a client connection (Nacos 2.x gRPC), with Nacos' rules: one
 * instance per service per connection (registering again replaces it), a batch replaces the
 * connection's set for the service, and everything goes when the connection does. Thread-safe as
 * long as one connection's calls do not race each other (a client sends them one at a time).
 */
final class ClientInstances {
  private static final Logger log = LoggerFactory.getLogger(ClientInstances.class);

  private final EphemeralStore store;
  private final NamingValidator validator;
  private final RegistryLimits limits;

  ClientInstances(EphemeralStore store, NamingValidator validator, RegistryLimits limits) {
    this.store = store;
    this.validator = validator;
    this.limits = limits;
  }

  void register(String clientId, Instance instance) {
    requireEphemeral(instance);
    validator.instance(instance);
    limits.admit(instance.key());
    store.registerForClient(instance, clientId);
    for (EphemeralRecord r : store.recordsOfClient(clientId, instance.key().service())) {
      if (!r.key().equals(instance.key())) {
        store.removeIfClient(r.key(), clientId);
      }
    }
  }

  void replace(String clientId, ServiceKey service, List<Instance> instances) {
    validator.serviceKey(service);
    Set<InstanceKey> keep = new HashSet<>();
    for (Instance i : instances) {
      requireEphemeral(i);
      validator.instance(i);
      if (!i.key().service().equals(service)) {
        throw NamingException.invalid("Param 'instances' is illegal: instance " + i.key().instanceId()
            + " is not of service " + service.groupedName() + ".");
      }
      keep.add(i.key());
    }
    limits.admitBatch(service, instances);
    for (Instance i : instances) {
      store.registerForClient(i, clientId);
    }
    for (EphemeralRecord r : store.recordsOfClient(clientId, service)) {
      if (!keep.contains(r.key())) {
        store.removeIfClient(r.key(), clientId);
      }
    }
  }

  /** True when the connection owned the instance here and it was removed. */
  boolean deregister(String clientId, InstanceKey key) {
    validator.instanceKey(key);
    return store.removeIfClient(key, clientId);
  }

  int removeClient(String clientId) {
    int removed = 0;
    for (EphemeralRecord r : store.recordsOfClient(clientId)) {
      if (store.removeIfClient(r.key(), clientId)) {
        removed++;
      }
    }
    if (removed > 0) {
      log.info("[{}] removed {} instances of closed client connection {}", store.localNodeId(),
          removed, clientId);
    }
    return removed;
  }

  private static void requireEphemeral(Instance instance) {
    if (!instance.ephemeral()) {
      throw NamingException.invalid("Param 'ephemeral' is illegal: instance "
          + instance.key().instanceId() + " of a client connection must be ephemeral; persistent"
          + " instances are registered with their own request.");
    }
  }
}
