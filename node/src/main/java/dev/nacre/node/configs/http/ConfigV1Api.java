package dev.nacre.node.configs.http;

import dev.nacre.config.api.ConfigItem;
import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.ConfigOperations;
import dev.nacre.config.api.ConfigRead;
import dev.nacre.config.api.Page;
import dev.nacre.config.api.PublishRequest;
import dev.nacre.config.api.RemoveRequest;
import dev.nacre.node.configs.http.ConfigParams.Dialect;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.HttpError;
import dev.nacre.node.http.Json;
import dev.nacre.node.http.Router;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Nacos' v1 config API, {@code /nacos/v1/cs/configs}: a read answers the raw content with the
 * headers nacos-client reads; {@code search}, {@code show=all} and {@code beta=true} answer JSON;
 * publishes and deletes answer through the write's future (no worker waits for the commit).
 */
final class ConfigV1Api {
  static final String CONFIGS = "/nacos/v1/cs/configs";
  static final String NOT_FOUND = "config data not exist";
  /** HTTP's date format (RFC 9110 IMF-fixdate): a two-digit day, always GMT. */
  private static final DateTimeFormatter HTTP_DATE =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", java.util.Locale.US).withZone(ZoneOffset.UTC);

  private final ConfigOperations operations;
  private final Json json;

  ConfigV1Api(ConfigOperations operations, Json json) {
    this.operations = operations;
    this.json = json;
  }

  void register(Router router) {
    router.add("GET", CONFIGS, this::get);
    router.addAsync("POST", CONFIGS, this::publish);
    router.addAsync("DELETE", CONFIGS, this::delete);
  }

  private ApiResponse get(ApiRequest r) {
    if (r.has("search")) {
      return search(r);
    }
    ConfigKey key = ConfigParams.key(r, Dialect.V1);
    if (r.param("show").filter("all"::equals).isPresent()) {
      // Nacos answers an absent configuration's detail with an empty 200.
      return operations.formal(key).map(c -> json.response(ConfigViews.detail(c)))
          .orElseGet(() -> ApiResponse.text(200, ""));
    }
    if (r.boolParam("beta").orElse(false)) {
      return json.response(restResult("query beta ok", operations.beta(key).map(ConfigViews::beta).orElse(null)));
    }
    Optional<String> tag = ConfigParams.tag(r).or(() -> r.header("Vipserver-Tag"));
    return operations.read(key, ConfigParams.clientIp(r), tag.orElse(""))
        .map(ConfigV1Api::content)
        .orElseGet(() -> noCache(ApiResponse.text(404, NOT_FOUND)));
  }

  /** The content with the headers Nacos sets (nacos-client 1.4 reads Config-Type and Encrypted-Data-Key). */
  static ApiResponse content(ConfigRead read) {
    ConfigItem item = read.item();
    ApiResponse response = noCache(new ApiResponse(200, contentType(item.type()),
        item.content().getBytes(StandardCharsets.UTF_8)))
        .withHeader("Content-MD5", item.md5())
        .withHeader("Config-Type", item.type())
        .withHeader("Last-Modified", HTTP_DATE.format(Instant.ofEpochMilli(item.modifiedMillis())));
    if (read.beta()) {
      response = response.withHeader("isBeta", "true");
    }
    if (!item.encryptedDataKey().isEmpty()) {
      response = response.withHeader("Encrypted-Data-Key", item.encryptedDataKey());
    }
    return response;
  }

  static ApiResponse noCache(ApiResponse response) {
    return response.withHeader("Pragma", "no-cache").withHeader("Expires", HTTP_DATE.format(Instant.EPOCH))
        .withHeader("Cache-Control", "no-cache,no-store");
  }

  private static String contentType(String type) {
    return switch (type) {
      case "json" -> ApiResponse.JSON;
      case "xml" -> "application/xml;charset=UTF-8";
      case "html" -> "text/html;charset=UTF-8";
      default -> ApiResponse.TEXT;
    };
  }

  private ApiResponse search(ApiRequest r) {
    String mode = r.required("search");
    if (!mode.equals("accurate") && !mode.equals("blur")) {
      throw HttpError.badRequest("Param 'search' must be 'accurate' or 'blur', got '" + mode + "'.");
    }
    Page<ConfigItem> page = operations.search(ConfigParams.namespace(r, Dialect.V1), r.param("dataId", ""),
        r.param("group", ""), r.param("appName", ""), r.param("config_tags", ""), mode.equals("blur"),
        ConfigParams.pageNo(r), ConfigParams.pageSize(r, 100));
    return json.response(ConfigViews.page(page, ConfigViews::info));
  }

  private CompletableFuture<ApiResponse> publish(ApiRequest r) {
    PublishRequest request = publishRequest(r, Dialect.V1);
    return operations.publish(request).thenApply(stored -> json.response(true));
  }

  /** A publish as v1 and v2 read it: v2 names the user {@code srcUser} and the tags {@code configTags}. */
  static PublishRequest publishRequest(ApiRequest r, Dialect dialect) {
    ConfigKey key = ConfigParams.key(r, dialect);
    String content = raw(r, "content").orElseThrow(() -> ConfigParams.missing("content", dialect));
    if (content.isBlank()) {
      throw HttpError.badRequest("content is blank : " + content);
    }
    Optional<String> tag = ConfigParams.tag(r);
    Optional<String> betaIps = r.header("betaIps").or(() -> r.param("betaIps"));
    String user = dialect == Dialect.V1 ? r.param("src_user", "") : r.param("srcUser", "");
    String tags = dialect == Dialect.V1 ? r.param("config_tags", "") : r.param("configTags", "");
    Optional<String> casMd5 = r.param("casMd5").or(() -> r.header("casMd5"));
    return new PublishRequest(key, content, ConfigParams.type(r), r.param("appName", ""), raw(r, "desc").orElse(""),
        tags, r.param("encryptedDataKey", ""), user, ConfigParams.clientIp(r), casMd5, betaIps, tag);
  }

  /** A parameter as sent, untrimmed (content keeps its spaces and newlines). */
  static Optional<String> raw(ApiRequest r, String name) {
    List<String> values = r.params().get(name);
    return values == null || values.isEmpty() ? Optional.empty() : Optional.ofNullable(values.get(0));
  }

  private CompletableFuture<ApiResponse> delete(ApiRequest r) {
    ConfigKey key = ConfigParams.key(r, Dialect.V1);
    boolean beta = r.boolParam("beta").orElse(false);
    RemoveRequest request = new RemoveRequest(key, beta, beta ? Optional.empty() : ConfigParams.tag(r),
        r.param("src_user", ""), ConfigParams.clientIp(r));
    return operations.remove(request).thenApply(removed -> beta
        ? json.response(restResult("stop beta ok", true)) : json.response(true));
  }

  /** Nacos' RestResult, {@code {code:200, message, data}}, of its beta answers. */
  static Map<String, Object> restResult(String message, Object data) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("code", 200);
    m.put("message", message);
    m.put("data", data);
    return m;
  }
}
