package dev.nacre.naming.push;

import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.model.ServiceView;
import java.util.Set;

/**
 * Builds the list a subscriber gets: in a node, {@code listInstances(service, clusters, false,
 * false)} (enabled instances, healthy or not, protection threshold applied). Called on the push
 * thread; must be quick and must not block. May throw; the push is then skipped and logged.
 */
@FunctionalInterface
public interface ViewSource {
  ServiceView view(ServiceKey service, Set<String> clusters);
}
