package dev.nacre.naming.operations;

import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.model.ClusterInfo;
import dev.nacre.naming.model.Namespace;
import dev.nacre.naming.model.Paging;
import dev.nacre.naming.model.Records;
import dev.nacre.naming.model.ServiceInfo;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.model.ServicePage;
import dev.nacre.naming.registry.RegistryIndex;
import dev.nacre.naming.registry.ServiceSnapshot;
import dev.nacre.naming.validate.NamingValidator;
import dev.nacre.proto.naming.NamingOperation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Services, their clusters and namespaces: everything in the registry that is not an instance.
 * All writes go through the replicated log; existence checks that depend on ephemeral instances
 * run here first. Thread-safe.
 */
final class CatalogOperations {
  private final RegistryIndex index;
  private final CpWriter cp;
  private final NamingValidator validator;

  CatalogOperations(RegistryIndex index, CpWriter cp, NamingValidator validator) {
    this.index = index;
    this.cp = cp;
    this.validator = validator;
  }

  void createService(ServiceInfo service) {
    service = withSelector(service);
    validator.serviceInfo(service);
    if (index.service(service.key()).isPresent()) {
      throw serviceExists(service.key());
    }
    cp.write(
        NamingOperation.newBuilder().setCreateService(Records.toRecord(service)).build(),
        "creating service " + service.key().groupedName());
  }

  void updateService(ServiceInfo service) {
    service = withSelector(service);
    validator.serviceInfo(service);
    existingService(service.key());
    cp.write(
        NamingOperation.newBuilder().setPutService(Records.toRecord(service)).build(),
        "updating service " + service.key().groupedName());
  }

  void deleteService(ServiceKey service) {
    validator.serviceKey(service);
    ServiceSnapshot snapshot = existingService(service);
    if (snapshot.hasInstances()) {
      throw new NamingException(
          NamingException.Kind.CONFLICT,
          "Service " + service.groupedName() + " is not empty, can't be delete. Please unregister"
              + " instance first");
    }
    cp.write(
        NamingOperation.newBuilder().setRemoveService(Records.toProto(service)).build(),
        "deleting service " + service.groupedName());
  }

  ServiceInfo getService(ServiceKey service) {
    validator.serviceKey(service);
    return existingService(service).info();
  }

  ServicePage listServices(String namespaceId, String group, int pageNo, int pageSize) {
    validator.namespaceId(namespaceId);
    validator.group(group);
    if (pageNo < 1 || pageSize < 1) {
      throw NamingException.invalid(
          "Param 'pageNo' and 'pageSize' are illegal: both must be at least 1 (were " + pageNo
              + " and " + pageSize + ").");
    }
    List<String> names =
        index.services(namespaceId).stream()
            .map(ServiceSnapshot::key)
            .filter(k -> k.group().equals(group))
            .map(ServiceKey::name)
            .sorted()
            .toList();
    return new ServicePage(names.size(), Paging.page(names, pageNo, pageSize));
  }

  List<Namespace> listNamespaces() {
    List<Namespace> result = new ArrayList<>();
    result.add(Namespace.PUBLIC);
    index.namespaces().stream()
        .filter(ns -> !Namespace.PUBLIC.id().equals(ns.id()))
        .sorted(Comparator.comparing(Namespace::id))
        .forEach(result::add);
    return result;
  }

  void createNamespace(Namespace namespace) {
    namespace = withDescription(namespace);
    validator.namespace(namespace);
    if (Namespace.PUBLIC.id().equals(namespace.id()) || index.namespace(namespace.id()).isPresent()) {
      throw new NamingException(
          NamingException.Kind.CONFLICT, "namespace " + namespace.id() + " already exists");
    }
    cp.write(
        NamingOperation.newBuilder().setCreateNamespace(Records.toRecord(namespace)).build(),
        "creating namespace " + namespace.id());
  }

  void updateNamespace(Namespace namespace) {
    namespace = withDescription(namespace);
    validator.namespace(namespace);
    if (Namespace.PUBLIC.id().equals(namespace.id())) {
      throw NamingException.invalid("namespace public is built in and cannot be changed");
    }
    if (index.namespace(namespace.id()).isEmpty()) {
      throw NamingException.notFound("namespace " + namespace.id() + " not found");
    }
    cp.write(
        NamingOperation.newBuilder().setPutNamespace(Records.toRecord(namespace)).build(),
        "updating namespace " + namespace.id());
  }

  void deleteNamespace(String namespaceId) {
    validator.namespaceId(namespaceId);
    if (Namespace.PUBLIC.id().equals(namespaceId)) {
      throw NamingException.invalid("namespace public is built in and cannot be deleted");
    }
    cp.write(
        NamingOperation.newBuilder().setRemoveNamespace(namespaceId).build(),
        "deleting namespace " + namespaceId);
  }

  void updateCluster(ClusterInfo cluster) {
    validator.cluster(cluster);
    existingService(cluster.service());
    cp.write(
        NamingOperation.newBuilder().setPutCluster(Records.toRecord(cluster)).build(),
        "updating cluster " + cluster.name() + " of service " + cluster.service().groupedName());
  }

  ClusterInfo getCluster(ServiceKey service, String clusterName) {
    validator.serviceKey(service);
    validator.clusterName(clusterName);
    return existingService(service).cluster(clusterName);
  }

  // The APIs leave optional fields out; store Nacos' defaults rather than nulls.
  private static ServiceInfo withSelector(ServiceInfo s) {
    return s.selector() == null || s.selector().isBlank()
        ? new ServiceInfo(s.key(), s.protectThreshold(), s.metadata(), ServiceInfo.NO_SELECTOR)
        : s;
  }

  private static Namespace withDescription(Namespace ns) {
    return ns.description() == null ? new Namespace(ns.id(), ns.name(), "") : ns;
  }

  private ServiceSnapshot existingService(ServiceKey key) {
    return index
        .service(key)
        .orElseThrow(
            () ->
                NamingException.notFound(
                    "service " + key.groupedName() + " not found in namespace " + key.namespaceId()));
  }

  private static NamingException serviceExists(ServiceKey key) {
    return new NamingException(
        NamingException.Kind.CONFLICT,
        "specified service " + key.groupedName() + " already exists in namespace "
            + key.namespaceId() + "!");
  }
}
