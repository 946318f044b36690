package dev.nacre.node.naming.http;

import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.model.Namespace;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.Json;
import dev.nacre.node.http.Result;
import dev.nacre.node.http.Router;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** The console's {@code /nacos/v1/console/namespaces}: list, create, rename, delete. */
public final class NamespaceApi {
  static final String BASE = "/nacos/v1/console/namespaces";

  private final NamingOperations naming;
  private final Json json;

  public NamespaceApi(NamingOperations naming, Json json) {
    this.naming = naming;
    this.json = json;
  }

  public void register(Router router) {
    router
        .add("GET", BASE, this::list)
        .add("POST", BASE, this::create)
        .add("PUT", BASE, this::update)
        .add("DELETE", BASE, this::delete);
  }

  private ApiResponse list(ApiRequest r) {
    List<Map<String, Object>> data = naming.listNamespaces().stream().map(ns -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("namespace", ns.id());
      m.put("namespaceShowName", ns.name());
      m.put("namespaceDesc", ns.description());
      m.put("quota", 200);
      m.put("configCount", 0);
      m.put("type", ns.id().equals(Namespace.PUBLIC.id()) ? 0 : 2);
      return m;
    }).toList();
    return json.response(Result.ok(data));
  }

  private ApiResponse create(ApiRequest r) {
    String id = r.param("customNamespaceId").orElseGet(() -> UUID.randomUUID().toString());
    naming.createNamespace(new Namespace(id, r.required("namespaceName"), r.param("namespaceDesc", "")));
    return ApiResponse.text(200, "true");
  }

  private ApiResponse update(ApiRequest r) {
    naming.updateNamespace(new Namespace(
        r.required("namespace"), r.required("namespaceShowName"), r.param("namespaceDesc", "")));
    return ApiResponse.text(200, "true");
  }

  private ApiResponse delete(ApiRequest r) {
    naming.deleteNamespace(r.required("namespaceId"));
    return ApiResponse.text(200, "true");
  }
}
