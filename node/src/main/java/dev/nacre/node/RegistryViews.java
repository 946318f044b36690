package dev.nacre.node;

import dev.nacre.naming.model.ServiceKey;
import dev.nacre.node.naming.http.ClientDirectory;
import dev.nacre.node.naming.http.InstanceOwners;
import java.util.List;
import java.util.function.Function;

/**
 * What the console's APIs read beyond {@code NamingOperations}: the node's clients, the owner of
 * each ephemeral instance, and the services of a namespace in every group.
 */
record RegistryViews(ClientDirectory clients, InstanceOwners owners, Function<String, List<ServiceKey>> servicesOf) {}
