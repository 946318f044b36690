package dev.nacre.node.configs.http;

import dev.nacre.config.api.ConfigListeners;
import dev.nacre.config.api.ConfigOperations;
import dev.nacre.node.http.Json;
import dev.nacre.node.http.Router;

/**
 * Nacos' configuration HTTP APIs on a node's router: v1 ({@code /nacos/v1/cs/configs}, its long
 * polling {@code /configs/listener}, {@code /history}) and the v2 Open API ({@code /nacos/v2/cs/config},
 * {@code /nacos/v2/cs/history}), with {@link ConfigErrors} answering the config module's refusals.
 * Reads run on the router's workers; publishes, deletes and long polls answer through futures
 * and hold no thread while they wait.
 */
public final class ConfigHttpApi {
  private ConfigHttpApi() {}

  /** Adds every config route to {@code router}, and how config refusals are answered. */
  public static void register(Router router, ConfigOperations operations, ConfigListeners listeners) {
    Json json = new Json();
    V2Answers v2 = new V2Answers(json);
    router.answerErrors(ConfigErrors::answer);
    new ConfigV1Api(operations, json).register(router);
    new LongPolling(operations, listeners).register(router);
    new HistoryApi(operations, json, v2).register(router);
    new ConfigV2Api(operations, v2).register(router);
  }
}
