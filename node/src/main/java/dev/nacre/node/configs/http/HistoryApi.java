package dev.nacre.node.configs.http;

import dev.nacre.config.api.ConfigItem;
import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.ConfigOperations;
import dev.nacre.config.api.Page;
import dev.nacre.config.api.Revision;
import dev.nacre.node.configs.http.ConfigParams.Dialect;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.HttpError;
import dev.nacre.node.http.Json;
import dev.nacre.node.http.Router;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A configuration's history, v1 ({@code /nacos/v1/cs/history...}, bare JSON) and v2
 * ({@code /nacos/v2/cs/history...}, in the v2 wrapper): the list of revisions, one revision,
 * the one before it, and the configurations of a namespace. As Nacos 2.x, a revision is looked up
 * with its configuration's dataId and group (Nacos 1.x took the id alone).
 */
final class HistoryApi {
  static final String V1 = "/nacos/v1/cs/history";
  static final String V2 = "/nacos/v2/cs/history";
  private static final int LISTING_PAGE = 500;

  private final ConfigOperations operations;
  private final Json json;
  private final V2Answers v2;

  HistoryApi(ConfigOperations operations, Json json, V2Answers v2) {
    this.operations = operations;
    this.json = json;
    this.v2 = v2;
  }

  void register(Router router) {
    router.add("GET", V1, r -> json.response(r.has("search") ? list(r, Dialect.V1) : revision(r, Dialect.V1)));
    router.add("GET", V1 + "/previous", r -> json.response(previous(r, Dialect.V1)));
    router.add("GET", V1 + "/configs", r -> json.response(configs(r, Dialect.V1)));
    router.add("GET", V2 + "/list", v2.wrap(r -> v2.ok(list(r, Dialect.V2))));
    router.add("GET", V2, v2.wrap(r -> v2.ok(revision(r, Dialect.V2))));
    router.add("GET", V2 + "/previous", v2.wrap(r -> v2.ok(previous(r, Dialect.V2))));
    router.add("GET", V2 + "/configs", v2.wrap(r -> v2.ok(configs(r, Dialect.V2))));
  }

  private Map<String, Object> list(ApiRequest r, Dialect dialect) {
    r.param("search").filter(s -> !s.equals("accurate")).ifPresent(s -> {
      throw HttpError.badRequest("Param 'search' must be 'accurate' for history, got '" + s + "'.");
    });
    ConfigKey key = requiredKey(r, dialect);
    Page<Revision> page = operations.history(key, ConfigParams.pageNo(r), ConfigParams.pageSize(r, 100));
    return ConfigViews.page(page, rev -> ConfigViews.revision(rev, false));
  }

  private Map<String, Object> revision(ApiRequest r, Dialect dialect) {
    long nid = ConfigParams.longParam(r, "nid", dialect);
    ConfigKey key = requiredKey(r, dialect);
    return operations.revision(key, nid).map(rev -> ConfigViews.revision(rev, true)).orElseThrow(
        () -> HttpError.notFound("certain config history for nid = " + nid + " not exist"));
  }

  private Map<String, Object> previous(ApiRequest r, Dialect dialect) {
    long id = ConfigParams.longParam(r, "id", dialect);
    ConfigKey key = requiredKey(r, dialect);
    return operations.previous(key, id).map(rev -> ConfigViews.revision(rev, true)).orElseThrow(
        () -> HttpError.notFound("previous config history for id = " + id + " not exist"));
  }

  private List<Map<String, Object>> configs(ApiRequest r, Dialect dialect) {
    ConfigParams.required(r, dialect == Dialect.V1 ? "tenant" : "namespaceId", dialect);
    String namespace = ConfigParams.namespace(r, dialect);
    List<Map<String, Object>> out = new ArrayList<>();
    for (int pageNo = 1; ; pageNo++) {
      Page<ConfigItem> page = operations.search(namespace, "", "", "", "", false, pageNo, LISTING_PAGE);
      page.pageItems().forEach(c -> out.add(ConfigViews.listed(c)));
      if (pageNo >= page.pagesAvailable() || page.pageItems().isEmpty()) {
        return out;
      }
    }
  }

  /** dataId and group, both required here (v1 too). */
  private static ConfigKey requiredKey(ApiRequest r, Dialect dialect) {
    ConfigParams.required(r, "dataId", dialect);
    if (!r.has("group") && !r.has("groupName")) {
      throw ConfigParams.missing("group", dialect);
    }
    return ConfigParams.key(r, dialect);
  }
}
