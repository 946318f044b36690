package dev.nacre.naming.registry;

import dev.nacre.naming.model.ServiceKey;

/**
 * Hears that a service's instances or settings changed in the index, from either write path
 * (e.g. to push the new list to subscribers). Called after the change is visible to readers,
 * outside any lock; several quick changes may each be reported, so listeners merge per service.
 */
@FunctionalInterface
public interface ServiceChangeListener {
  void onServiceChanged(ServiceKey service);
}
