package dev.nacre.node.naming.http;

import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.Paging;
import dev.nacre.naming.model.ServiceInfo;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.model.ServicePage;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.HttpError;
import dev.nacre.node.http.Json;
import dev.nacre.node.http.Router;
import dev.nacre.node.naming.selector.ServiceListSelector;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * {@code /nacos/v1/ns/service}: create, delete, update, detail, list; and the console's
 * {@code /nacos/v1/ns/catalog/instances}: every instance of a service, offline ones included.
 */
public final class ServiceApi {
  static final String BASE = "/nacos/v1/ns/service";

  private final NamingOperations naming;
  private final Json json;
  private final RequestReader reader;

  public ServiceApi(NamingOperations naming, Json json) {
    this.naming = naming;
    this.json = json;
    this.reader = new RequestReader(json);
  }

  public void register(Router router) {
    router
        .add("POST", BASE, this::create)
        .add("DELETE", BASE, this::delete)
        .add("PUT", BASE, this::update)
        .add("GET", BASE, this::detail)
        .add("GET", BASE + "/list", this::list)
        .add("GET", "/nacos/v1/ns/catalog/instances", this::catalogInstances);
  }

  private ApiResponse create(ApiRequest r) {
    ServiceKey key = reader.service(r);
    naming.createService(new ServiceInfo(
        key,
        reader.protectThreshold(r).orElse(0f),
        reader.metadata(r),
        reader.selector(r).orElse(ServiceInfo.NO_SELECTOR)));
    return ApiResponse.ok();
  }

  private ApiResponse update(ApiRequest r) {
    ServiceKey key = reader.service(r);
    ServiceInfo current = naming.getService(key);
    naming.updateService(new ServiceInfo(
        key,
        reader.protectThreshold(r).orElse(current.protectThreshold()),
        r.has("metadata") ? reader.metadata(r) : current.metadata(),
        reader.selector(r).orElse(current.selector())));
    return ApiResponse.ok();
  }

  private ApiResponse delete(ApiRequest r) {
    naming.deleteService(reader.service(r));
    return ApiResponse.ok();
  }

  private ApiResponse detail(ApiRequest r) {
    ServiceKey key = reader.service(r);
    ServiceInfo info = naming.getService(key);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("namespaceId", key.namespaceId());
    m.put("groupName", key.group());
    m.put("name", key.name());
    m.put("protectThreshold", info.protectThreshold());
    m.put("metadata", info.metadata());
    m.put("selector", json.tree("selector", info.selector()));
    TreeSet<String> clusters = new TreeSet<>();
    for (Instance i : naming.allInstances(key)) {
      clusters.add(i.key().cluster());
    }
    List<Map<String, Object>> clusterViews =
        clusters.stream().map(c -> ClusterApi.view(naming.getCluster(key, c))).toList();
    m.put("clusters", clusterViews);
    return json.response(m);
  }

  /**
   * Nacos' console list: unlike {@code /instance/list}, instances taken offline (enabled=false)
   * are in it, so an operator can see them and bring them back. Optionally one cluster; paged.
   */
  private ApiResponse catalogInstances(ApiRequest r) {
    ServiceKey key = reader.service(r);
    naming.getService(key); // a missing service is an error, not an empty page
    int pageNo = pageNo(r);
    int pageSize = pageSize(r);
    Optional<String> cluster = r.param("clusterName").filter(c -> !c.isEmpty());
    List<Instance> all = naming.allInstances(key).stream()
        .filter(i -> cluster.map(i.key().cluster()::equals).orElse(true))
        .toList();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("count", all.size());
    m.put("list", Paging.page(all, pageNo, pageSize).stream().map(Views::host).toList());
    return json.response(m);
  }

  private static int pageNo(ApiRequest r) {
    int pageNo = r.intParam("pageNo").orElse(1);
    if (pageNo < 1) {
      throw HttpError.badRequest("Param 'pageNo' must be 1 or more, got " + pageNo + ".");
    }
    return pageNo;
  }

  private static int pageSize(ApiRequest r) {
    int pageSize = r.intParam("pageSize").orElse(10);
    if (pageSize < 1 || pageSize > Paging.MAX_PAGE_SIZE) {
      throw HttpError.badRequest("Param 'pageSize' must be within 1.." + Paging.MAX_PAGE_SIZE + ", got " + pageSize + ".");
    }
    return pageSize;
  }

  private ApiResponse list(ApiRequest r) {
    int pageNo = pageNo(r);
    int pageSize = pageSize(r);
    ServicePage page = ServiceListSelector.parse(r.param("selector", "")).page(naming,
        r.param("namespaceId", ServiceKey.DEFAULT_NAMESPACE),
        r.param("groupName", ServiceKey.DEFAULT_GROUP),
        pageNo,
        pageSize);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("count", page.count());
    m.put("doms", page.names());
    return json.response(m);
  }
}
