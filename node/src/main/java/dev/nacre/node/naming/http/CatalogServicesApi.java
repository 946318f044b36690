package dev.nacre.node.naming.http;

import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.Paging;
import dev.nacre.naming.model.ServiceInfo;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.HttpError;
import dev.nacre.node.http.Json;
import dev.nacre.node.http.Router;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Nacos' console list of services, {@code GET /nacos/v1/ns/catalog/services}: the services of a
 * namespace in every group, filtered by parts of their group and name ({@code groupNameParam},
 * {@code serviceNameParam}), sorted by group then name, paged, each with its instance, healthy and
 * cluster counts (offline instances included) and whether its protection threshold is reached
 * ({@code triggerFlag}). Besides Nacos' fields, each service has its {@code protectThreshold} and
 * the answer lists every {@code groups} of the namespace, for the console's group filter.
 */
public final class CatalogServicesApi {
  static final String PATH = "/nacos/v1/ns/catalog/services";

  private final NamingOperations naming;
  private final Json json;
  private final Function<String, List<ServiceKey>> servicesOf;

  /** @param servicesOf the existing services of a namespace, any group, any order */
  public CatalogServicesApi(NamingOperations naming, Json json, Function<String, List<ServiceKey>> servicesOf) {
    this.naming = naming;
    this.json = json;
    this.servicesOf = servicesOf;
  }

  public void register(Router router) {
    router.add("GET", PATH, this::list);
  }

  private ApiResponse list(ApiRequest r) {
    String namespace = r.param("namespaceId", ServiceKey.DEFAULT_NAMESPACE);
    String groupPart = r.param("groupNameParam", "");
    String namePart = r.param("serviceNameParam", "");
    int pageNo = r.intParam("pageNo").orElse(1);
    int pageSize = r.intParam("pageSize").orElse(20);
    if (pageNo < 1 || pageSize < 1 || pageSize > Paging.MAX_PAGE_SIZE) {
      throw HttpError.badRequest("Params 'pageNo' (1 or more) and 'pageSize' (1.." + Paging.MAX_PAGE_SIZE
          + ") are illegal: got " + pageNo + " and " + pageSize + ".");
    }
    // The registry checks the names: a filter no group or namespace could hold is refused, not empty.
    naming.listServices(namespace, groupPart.isEmpty() ? ServiceKey.DEFAULT_GROUP : groupPart, 1, 1);
    boolean onlyWithInstances = r.boolParam("hasIpCount").orElse(false);
    List<ServiceKey> all = servicesOf.apply(namespace);
    Set<String> groups = new TreeSet<>();
    all.forEach(k -> groups.add(k.group()));
    List<ServiceKey> matching = all.stream()
        .filter(k -> k.group().contains(groupPart) && k.name().contains(namePart))
        .sorted(Comparator.comparing(ServiceKey::group).thenComparing(ServiceKey::name))
        .toList();
    List<Map<String, Object>> rows = new ArrayList<>();
    for (ServiceKey key : matching) {
      row(key).filter(m -> !onlyWithInstances || (int) m.get("ipCount") > 0).ifPresent(rows::add);
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("count", rows.size());
    m.put("serviceList", Paging.page(rows, pageNo, pageSize));
    m.put("groups", groups);
    return json.response(m);
  }

  /** The service's row; empty when it went away since it was listed. */
  private Optional<Map<String, Object>> row(ServiceKey key) {
    ServiceInfo info;
    List<Instance> instances;
    boolean reached;
    try {
      info = naming.getService(key);
      instances = naming.allInstances(key);
      reached = naming.listInstances(key, Set.of(), false, false).reachProtectionThreshold();
    } catch (NamingException e) {
      if (e.kind() == NamingException.Kind.NOT_FOUND) {
        return Optional.empty();
      }
      throw e;
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", key.name());
    m.put("groupName", key.group());
    m.put("clusterCount", instances.stream().map(i -> i.key().cluster()).distinct().count());
    m.put("ipCount", instances.size());
    m.put("healthyInstanceCount", instances.stream().filter(Instance::healthy).count());
    m.put("triggerFlag", String.valueOf(reached));
    m.put("protectThreshold", info.protectThreshold());
    return Optional.of(m);
  }
}
