package dev.nacre.node.configs.http;

import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.ConfigListeners;
import dev.nacre.config.api.ConfigListeners.ListenerView;
import dev.nacre.node.configs.http.ConfigParams.Dialect;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.Json;
import dev.nacre.node.http.Router;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Who listens to one configuration on this member, as Nacos' console asks:
 * {@code GET /nacos/v1/cs/configs/listener?dataId=&group=&tenant=} answers
 * {@code {"collectStatus":200,"lisentersGroupkeyStatus":{"<client ip>":"<md5 it knows>"}}} (Nacos'
 * spelling). Clients of every transport (gRPC connections, long polls) are counted; two clients of
 * one address show as one, as in Nacos.
 */
final class ListenerQuery {
  private final ConfigListeners listeners;
  private final Json json;

  ListenerQuery(ConfigListeners listeners, Json json) {
    this.listeners = listeners;
    this.json = json;
  }

  void register(Router router) {
    router.add("GET", LongPolling.LISTENER, this::listeners);
  }

  private ApiResponse listeners(ApiRequest r) {
    ConfigKey key = ConfigParams.key(r, Dialect.V1);
    Map<String, String> byAddress = new LinkedHashMap<>();
    for (ListenerView view : listeners.listenersOf(key)) {
      byAddress.put(view.clientIp(), view.md5());
    }
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("collectStatus", 200);
    answer.put("lisentersGroupkeyStatus", byAddress);
    return json.response(answer);
  }
}
