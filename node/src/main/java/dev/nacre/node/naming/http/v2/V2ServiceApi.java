package dev.nacre.node.naming.http.v2;

import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.model.ClusterInfo;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.ServiceInfo;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.model.ServicePage;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.Json;
import dev.nacre.node.http.Router;
import dev.nacre.node.naming.http.ClusterApi;
import dev.nacre.node.naming.http.RequestReader;
import dev.nacre.node.naming.selector.ServiceListSelector;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@code /nacos/v2/ns/service}: create, delete, update, detail, list. As in Nacos' v2, an update
 * sets every field (absent ones take their defaults), and an unknown service is a 400 with code
 * 21008.
 */
public final class V2ServiceApi {
  static final String BASE = "/nacos/v2/ns/service";
  /** Nacos' v2 service list caps a page at 500 names. */
  static final int MAX_PAGE_SIZE = 500;

  private final NamingOperations naming;
  private final Json json;
  private final RequestReader reader;
  private final V2Answers answers;

  public V2ServiceApi(NamingOperations naming, Json json) {
    this.naming = naming;
    this.json = json;
    this.reader = new RequestReader(json);
    this.answers = new V2Answers(json);
  }

  public void register(Router router) {
    router
        .add("POST", BASE, answers.wrap(this::create))
        .add("DELETE", BASE, answers.wrap(this::delete))
        .add("PUT", BASE, answers.wrap(this::update))
        .add("GET", BASE, answers.wrap(this::detail))
        .add("GET", BASE + "/list", answers.wrap(this::list));
  }

  private ApiResponse create(ApiRequest r) {
    ServiceInfo info = form(r);
    try {
      naming.createService(info);
    } catch (NamingException e) {
      if (e.kind() == NamingException.Kind.CONFLICT) {
        throw new V2Error(400, V2Code.SERVICE_ALREADY_EXIST, e.getMessage());
      }
      throw e;
    }
    return answers.ok("ok");
  }

  private ApiResponse delete(ApiRequest r) {
    ServiceKey key = service(r);
    try {
      naming.deleteService(key);
    } catch (NamingException e) {
      if (e.kind() == NamingException.Kind.CONFLICT) {
        throw new V2Error(400, V2Code.SERVICE_DELETE_FAILURE, e.getMessage());
      }
      throw V2Error.notFoundAs(e, 400, V2Code.SERVICE_NOT_EXIST);
    }
    return answers.ok("ok");
  }

  private ApiResponse update(ApiRequest r) {
    ServiceInfo info = form(r);
    try {
      naming.updateService(info);
    } catch (NamingException e) {
      throw V2Error.notFoundAs(e, 400, V2Code.SERVICE_NOT_EXIST);
    }
    return answers.ok("ok");
  }

  private ApiResponse detail(ApiRequest r) {
    ServiceKey key = service(r);
    ServiceInfo info;
    try {
      info = naming.getService(key);
    } catch (NamingException e) {
      throw V2Error.notFoundAs(e, 400, V2Code.SERVICE_NOT_EXIST);
    }
    List<Instance> instances = naming.allInstances(key);
    TreeSet<String> clusterNames = new TreeSet<>();
    instances.forEach(i -> clusterNames.add(i.key().cluster()));
    Map<String, Object> clusters = new LinkedHashMap<>();
    for (String name : clusterNames) {
      clusters.put(name, cluster(naming.getCluster(key, name)));
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("namespace", key.namespaceId());
    m.put("serviceName", key.name());
    m.put("groupName", key.group());
    m.put("clusterMap", clusters);
    m.put("metadata", info.metadata());
    m.put("protectThreshold", info.protectThreshold());
    m.put("selector", json.tree("selector", info.selector()));
    // Nacre chooses CP or AP per instance; a service reads as ephemeral while all it holds is.
    m.put("ephemeral", !instances.isEmpty() && instances.stream().allMatch(Instance::ephemeral));
    return answers.ok(m);
  }

  private ApiResponse list(ApiRequest r) {
    int pageNo = r.intParam("pageNo").orElse(1);
    int pageSize = Math.min(MAX_PAGE_SIZE, r.intParam("pageSize").orElse(20));
    ServiceListSelector selector;
    try {
      selector = ServiceListSelector.parse(r.param("selector", ""));
    } catch (NamingException e) {
      throw new V2Error(400, V2Code.SELECTOR_ERROR, e.getMessage());
    }
    ServicePage page = selector.page(naming, r.param("namespaceId", ServiceKey.DEFAULT_NAMESPACE),
            r.param("groupName", ServiceKey.DEFAULT_GROUP), pageNo, pageSize);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("count", page.count());
    m.put("services", page.names());
    return answers.ok(m);
  }

  private ServiceKey service(ApiRequest r) {
    V2Params.require(r, "serviceName", "String");
    return reader.service(r);
  }

  /** Nacos' v2 service form: absent fields take their defaults. */
  private ServiceInfo form(ApiRequest r) {
    ServiceKey key = service(r);
    return new ServiceInfo(
        key,
        reader.protectThreshold(r).orElse(0f),
        V2Params.as(V2Code.SERVICE_METADATA_ERROR, () -> reader.metadata(r)),
        V2Params.as(V2Code.SELECTOR_ERROR, () -> reader.selector(r)).orElse(ServiceInfo.NO_SELECTOR));
  }

  private static Map<String, Object> cluster(ClusterInfo c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("clusterName", c.name());
    m.put("healthChecker", ClusterApi.checker(c));
    m.put("metadata", c.metadata());
    return m;
  }
}
