package dev.nacre.node.configs.http;

import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.ConfigOperations;
import dev.nacre.config.api.RemoveRequest;
import dev.nacre.node.configs.http.ConfigParams.Dialect;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.HttpError;
import dev.nacre.node.http.Router;
import java.util.concurrent.CompletableFuture;

/**
 * Nacos' v2 config Open API, {@code /nacos/v2/cs/config}: the content, a publish and a delete in
 * the v2 wrapper. The namespace is {@code namespaceId} ({@code tenant} as Nacos 2.2 named it is
 * read too); dataId and group are required.
 */
final class ConfigV2Api {
  static final String CONFIG = "/nacos/v2/cs/config";

  private final ConfigOperations operations;
  private final V2Answers v2;

  ConfigV2Api(ConfigOperations operations, V2Answers v2) {
    this.operations = operations;
    this.v2 = v2;
  }

  void register(Router router) {
    router.add("GET", CONFIG, v2.wrap(this::get));
    router.addAsync("POST", CONFIG, v2.wrapAsync(this::publish));
    router.addAsync("DELETE", CONFIG, v2.wrapAsync(this::delete));
  }

  private ApiResponse get(ApiRequest r) {
    ConfigKey key = ConfigParams.key(r, Dialect.V2);
    String tag = ConfigParams.tag(r).orElse("");
    return operations.read(key, ConfigParams.clientIp(r), tag)
        .map(read -> v2.ok(read.item().content()))
        .orElseThrow(() -> HttpError.notFound(ConfigV1Api.NOT_FOUND));
  }

  private CompletableFuture<ApiResponse> publish(ApiRequest r) {
    return operations.publish(ConfigV1Api.publishRequest(r, Dialect.V2)).thenApply(stored -> v2.ok(true));
  }

  private CompletableFuture<ApiResponse> delete(ApiRequest r) {
    ConfigKey key = ConfigParams.key(r, Dialect.V2);
    RemoveRequest request = new RemoveRequest(key, false, ConfigParams.tag(r), r.param("srcUser", ""),
        ConfigParams.clientIp(r));
    return operations.remove(request).thenApply(removed -> v2.ok(true));
  }
}
