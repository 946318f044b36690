package dev.nacre.node;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Seeded inputs for fuzzing the node's ports: parameter names the APIs read, and values that are
 * valid, borderline or hostile (wrong types, out of range, malformed JSON, deep nesting, huge,
 * control and non-ASCII characters, Nacos' separators in the wrong places). The same seed gives
 * the same sequence.
 */
final class FuzzInputs {
  static final List<String> HTTP_ROUTES = List.of(
      "POST /nacos/v1/ns/instance", "DELETE /nacos/v1/ns/instance", "PUT /nacos/v1/ns/instance",
      "PATCH /nacos/v1/ns/instance", "GET /nacos/v1/ns/instance", "GET /nacos/v1/ns/instance/list",
      "PUT /nacos/v1/ns/instance/beat", "POST /nacos/v1/ns/service", "DELETE /nacos/v1/ns/service",
      "PUT /nacos/v1/ns/service", "GET /nacos/v1/ns/service", "GET /nacos/v1/ns/service/list",
      "GET /nacos/v1/ns/catalog/instances", "PUT /nacos/v1/ns/cluster", "GET /nacos/v1/ns/operator/switches",
      "GET /nacos/v1/ns/operator/metrics", "GET /nacos/v1/ns/operator/servers", "PUT /nacos/v1/ns/operator/log",
      "GET /nacos/v1/core/cluster/nodes", "GET /nacos/v1/console/namespaces", "POST /nacos/v1/console/namespaces",
      "PUT /nacos/v1/console/namespaces", "DELETE /nacos/v1/console/namespaces",
      "POST /nacos/v2/ns/instance", "DELETE /nacos/v2/ns/instance", "PUT /nacos/v2/ns/instance",
      "PATCH /nacos/v2/ns/instance", "GET /nacos/v2/ns/instance", "GET /nacos/v2/ns/instance/list",
      "PUT /nacos/v2/ns/instance/beat", "PUT /nacos/v2/ns/instance/metadata/batch",
      "DELETE /nacos/v2/ns/instance/metadata/batch", "POST /nacos/v2/ns/service", "DELETE /nacos/v2/ns/service",
      "PUT /nacos/v2/ns/service", "GET /nacos/v2/ns/service", "GET /nacos/v2/ns/service/list",
      "PUT /nacos/v2/ns/health/instance", "GET /nacos/v2/ns/operator/switches", "GET /nacos/v2/ns/operator/metrics",
      "GET /nacos/v2/core/cluster/node/list", "GET /nacos/v2/core/cluster/node/self",
      "GET /nacos/v1/ns/catalog/services", "GET /nacos/v2/ns/catalog/instances", "GET /nacos/v2/ns/client/list",
      "GET /nacos/v2/ns/client", "GET /nacos/v2/ns/client/publish/list", "GET /nacos/v2/ns/client/subscribe/list",
      "GET /nacos/v2/ns/client/service/publisher/list", "GET /nacos/v2/ns/client/service/subscriber/list",
      "GET /nacos/v2/ns/instance/statuses/public%23%23DEFAULT_GROUP@@svc-1", "GET /nacos/v2/ns/instance/statuses/svc-1",
      "GET /nacos/v2/ns/instance/statuses/%23%23", "GET /nacos/v2/ns/instance/statuses/a%2Fb",
      "PUT /nacos/v2/ns/operator/switches",
      "GET /nacre/v1/status", "GET /metrics", "GET /nacos/v1/console/health/readiness",
      "GET /nacos/v1/ns/no/such/route", "POST /", "OPTIONS /nacos/v1/ns/instance", "TRACE /nacos/v1/ns/instance");

  static final List<String> PARAMS = List.of(
      "serviceName", "groupName", "namespaceId", "clusterName", "clusters", "ip", "port", "weight",
      "healthy", "enabled", "ephemeral", "metadata", "beat", "pageNo", "pageSize", "healthyOnly",
      "consistency", "protectThreshold", "selector", "logName", "logLevel", "udpPort", "clientIP",
      "instances", "serviceNames", "customNamespaceId", "namespaceName", "namespaceDesc",
      "healthChecker", "checkPort", "useInstancePort4Check", "app", "tenant", "encoding", "consistencyType",
      "clientId", "enabledOnly", "groupNameParam", "serviceNameParam", "hasIpCount", "entry", "value");

  private static final List<String> FIXED = List.of(
      "", " ", "0", "-1", "1", "65535", "65536", "2147483648", "-9223372036854775809", "99999999999999999999",
      "1.5", "-0.0", "NaN", "Infinity", "1e309", "0x10", "true", "false", "TRUE", "yes", "null",
      "{}", "[]", "{\"k\":\"v\"}", "[1,2]", "{\"a\":", "\"str\"", "{\"type\":\"label\",\"expression\":\"x\"}",
      "DEFAULT_GROUP@@svc", "a@@b@@c", "@@", "DEFAULT", "c1,c2", ",,", "127.0.0.1", "::1", "[::1]",
      "999.1.1.1", "localhost", "public", "../../etc/passwd", "%00", "%zz", "\u0000", "\r\n", "服务",
      "\uD83D\uDE00", "\uD800", "a#b", "a:b", "*", "linearizable", "DEBUG", "naming-server", "com.alibaba");

  private final SplittableRandom random;

  FuzzInputs(long seed) {
    this.random = new SplittableRandom(seed);
  }

  int nextInt(int bound) {
    return random.nextInt(bound);
  }

  <T> T pick(List<T> from) {
    return from.get(random.nextInt(from.size()));
  }

  /** A value for any parameter or JSON field. */
  String value() {
    switch (random.nextInt(10)) {
      case 0:
        return "svc-" + random.nextInt(50);
      case 1:
        return "127.0." + random.nextInt(3) + "." + random.nextInt(300);
      case 2:
        return String.valueOf(random.nextInt(-10, 70_000));
      case 3:
        return "x".repeat(random.nextInt(1, 3) == 1 ? 600 : 70_000);
      case 4:
        return "[".repeat(600) + "]".repeat(random.nextBoolean() ? 600 : 10);
      case 5:
        return "{\"" + pick(PARAMS) + "\":" + jsonValue() + "}";
      default:
        return pick(FIXED);
    }
  }

  /** A JSON value of any type, sometimes broken. */
  String jsonValue() {
    switch (random.nextInt(6)) {
      case 0:
        return String.valueOf(random.nextInt(-5, 70_000));
      case 1:
        return "\"" + value().replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
      case 2:
        return pick(List.of("true", "false", "null", "1e400", "-0", "{}", "[]", "[null]"));
      case 3:
        return "{\"k\":" + (random.nextBoolean() ? "\"v\"" : "[") + "}";
      default:
        return pick(FIXED).isEmpty() ? "\"\"" : "\"" + pick(List.of("svc", "127.0.0.1", "DEFAULT", "x")) + "\"";
    }
  }

  /** Up to eight parameters, names mostly from {@link #PARAMS}. */
  Map<String, String> params() {
    Map<String, String> params = new LinkedHashMap<>();
    int n = random.nextInt(9);
    for (int i = 0; i < n; i++) {
      params.put(random.nextInt(12) == 0 ? value() : pick(PARAMS), value());
    }
    return params;
  }

  /** A request body of a Nacos 2.x client message: a valid template with fields replaced, dropped or broken. */
  String clientBody(String type) {
    StringBuilder json = new StringBuilder("{\"headers\":{},\"module\":\"naming\",\"namespace\":\"public\"");
    String[] fields = {"serviceName", "groupName", "type", "instance", "instances", "clusters", "healthyOnly",
        "udpPort", "subscribe", "pageNo", "pageSize", "selector", "namespace"};
    for (String f : fields) {
      if (random.nextInt(3) == 0) {
        continue;
      }
      json.append(",\"").append(f).append("\":").append(switch (f) {
        case "instance" -> instanceJson();
        case "instances" -> "[" + instanceJson() + (random.nextBoolean() ? "," + instanceJson() : "") + "]";
        case "type" -> "\"" + pick(List.of("registerInstance", "deRegisterInstance", "batchRegisterInstance",
            "dance", "")) + "\"";
        default -> random.nextInt(3) == 0 ? "\"svc-" + random.nextInt(20) + "\"" : jsonValue();
      });
    }
    String body = json.append("}").toString();
    return random.nextInt(15) == 0 ? body.substring(0, random.nextInt(body.length())) : body;
  }

  private String instanceJson() {
    if (random.nextInt(6) == 0) {
      return jsonValue();
    }
    return "{\"ip\":" + (random.nextBoolean() ? "\"127.0.1." + random.nextInt(255) + "\"" : jsonValue())
        + ",\"port\":" + (random.nextBoolean() ? String.valueOf(random.nextInt(1, 65536)) : jsonValue())
        + ",\"weight\":" + jsonValue() + ",\"healthy\":" + jsonValue() + ",\"enabled\":" + jsonValue()
        + ",\"ephemeral\":" + jsonValue() + ",\"clusterName\":" + jsonValue() + ",\"metadata\":"
        + (random.nextBoolean() ? "{\"k\":" + jsonValue() + "}" : jsonValue()) + "}";
  }
}
