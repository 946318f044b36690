package dev.nacre.node.naming.http.v2;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.InstancePatch;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.Json;
import dev.nacre.node.naming.http.RequestReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BinaryOperator;

/**
 * {@code PUT|DELETE /nacos/v2/ns/instance/metadata/batch}: adds or removes metadata keys on the
 * listed instances of one kind (all of the service's instances of that kind when none are
 * listed). Each instance changes by a patch, so an ephemeral one's edit is its operator override.
 * Unlike Nacos, an {@code instances} parameter that is not a JSON list is refused (Nacos then
 * edits every instance of the service).
 */
final class V2MetadataBatch {
  static final String PERSISTENT = "persistent";

  private final NamingOperations naming;
  private final Json json;
  private final RequestReader reader;

  V2MetadataBatch(NamingOperations naming, Json json, RequestReader reader) {
    this.naming = naming;
    this.json = json;
    this.reader = reader;
  }

  Map<String, Object> update(ApiRequest r) {
    return edit(r, (current, given) -> {
      Map<String, String> m = new LinkedHashMap<>(current);
      m.putAll(given);
      return m;
    });
  }

  Map<String, Object> delete(ApiRequest r) {
    return edit(r, (current, given) -> {
      Map<String, String> m = new LinkedHashMap<>(current);
      given.keySet().forEach(m::remove);
      return m;
    });
  }

  private Map<String, Object> edit(ApiRequest r, BinaryOperator<Map<String, String>> change) {
    V2Params.require(r, "serviceName", "String");
    V2Params.require(r, "metadata", "String");
    ServiceKey service = reader.service(r);
    Map<String, String> given = V2Params.as(V2Code.INSTANCE_METADATA_ERROR, () -> reader.metadata(r));
    boolean ephemeral = !PERSISTENT.equals(r.param("consistencyType", ""));
    List<String> updated = new ArrayList<>();
    for (InstanceKey key : targets(r, service, ephemeral)) {
      Optional<Instance> current = V2Params.find(naming, key).filter(i -> i.ephemeral() == ephemeral);
      if (current.isEmpty()) {
        continue;
      }
      naming.patchInstance(key, ephemeral, new InstancePatch(Optional.empty(), Optional.empty(), Optional.empty(),
          Optional.of(change.apply(current.get().metadata(), given))));
      updated.add(key.ip() + ":" + key.port() + ":unknown:" + key.cluster() + ":"
          + (ephemeral ? "ephemeral" : PERSISTENT));
    }
    return Map.of("updated", updated);
  }

  private List<InstanceKey> targets(ApiRequest r, ServiceKey service, boolean ephemeral) {
    Optional<String> listed = r.param("instances");
    if (listed.isEmpty()) {
      return naming.allInstances(service).stream().filter(i -> i.ephemeral() == ephemeral).map(Instance::key).toList();
    }
    JsonNode list = V2Params.as(V2Code.PARAMETER_VALIDATE_ERROR, () -> json.tree("instances", listed.get()));
    if (!list.isArray()) {
      throw new V2Error(400, V2Code.PARAMETER_VALIDATE_ERROR,
          "Param 'instances' must be a JSON list such as [{\"ip\":\"127.0.0.1\",\"port\":8080,\"clusterName\":\"DEFAULT\"}]");
    }
    List<InstanceKey> keys = new ArrayList<>();
    for (JsonNode i : list) {
      if (!i.hasNonNull("ip") || !i.path("port").canConvertToInt()) {
        throw new V2Error(400, V2Code.PARAMETER_VALIDATE_ERROR, "Param 'instances' has an entry without ip and port: " + i);
      }
      String cluster = i.path("clusterName").asText("");
      keys.add(new InstanceKey(service, cluster.isBlank() ? InstanceKey.DEFAULT_CLUSTER : cluster,
          i.get("ip").asText(), i.get("port").asInt()));
    }
    return keys;
  }

}
