package dev.nacre.node.naming.http.v2;

import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.Paging;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.Json;
import dev.nacre.node.http.Router;
import dev.nacre.node.naming.http.InstanceOwners;
import dev.nacre.node.naming.http.RequestReader;
import dev.nacre.node.naming.http.Views;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code GET /nacos/v2/ns/catalog/instances}: every instance of a service, offline ones included
 * (the console's list), optionally only healthy or unhealthy, enabled or disabled; paged. Each
 * ephemeral instance also names its {@code ownerNode}, a field Nacos does not have.
 *
 * <p>Unlike Nacos, which cuts the page before it filters, the page is cut from the filtered list,
 * so that {@code count} and the page agree.
 */
public final class V2CatalogApi {
  static final String BASE = "/nacos/v2/ns/catalog";

  private final NamingOperations naming;
  private final InstanceOwners owners;
  private final RequestReader reader;
  private final V2Answers answers;

  public V2CatalogApi(NamingOperations naming, InstanceOwners owners, Json json) {
    this.naming = naming;
    this.owners = owners;
    this.reader = new RequestReader(json);
    this.answers = new V2Answers(json);
  }

  public void register(Router router) {
    router.add("GET", BASE + "/instances", answers.wrap(this::instances));
  }

  private ApiResponse instances(ApiRequest r) {
    V2Params.require(r, "serviceName", "String");
    V2Params.require(r, "pageNo", "int");
    V2Params.require(r, "pageSize", "int");
    int pageNo = r.intParam("pageNo").orElseThrow();
    int pageSize = r.intParam("pageSize").orElseThrow();
    if (pageNo < 1 || pageSize < 1 || pageSize > Paging.MAX_PAGE_SIZE) {
      throw new V2Error(400, V2Code.PARAMETER_VALIDATE_ERROR, "pageNo must be 1 or more and pageSize within 1.."
          + Paging.MAX_PAGE_SIZE + "; got pageNo=" + pageNo + ", pageSize=" + pageSize);
    }
    ServiceKey key = reader.service(r);
    List<Instance> all;
    try {
      naming.getService(key); // a missing service is an error, not an empty page
      all = naming.allInstances(key);
    } catch (NamingException e) {
      throw V2Error.notFoundAs(e, 400, V2Code.SERVICE_NOT_EXIST);
    }
    Optional<Boolean> healthy = r.boolParam("healthyOnly");
    Optional<Boolean> enabled = r.boolParam("enabledOnly");
    List<Instance> kept = all.stream()
        .filter(i -> healthy.map(h -> i.healthy() == h).orElse(true))
        .filter(i -> enabled.map(e -> i.enabled() == e).orElse(true))
        .toList();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("instances", Paging.page(kept, pageNo, pageSize).stream().map(this::withOwner).toList());
    m.put("count", kept.size());
    return answers.ok(m);
  }

  private Map<String, Object> withOwner(Instance i) {
    Map<String, Object> m = Views.host(i);
    if (i.ephemeral()) {
      owners.ownerOf(i.key()).ifPresent(owner -> m.put("ownerNode", owner));
    }
    return m;
  }
}
