package dev.nacre.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nacre.cluster.check.HistoryRecorder;
import dev.nacre.cluster.check.InstanceKey;
import dev.nacre.cluster.check.Mode;
import dev.nacre.cluster.check.Op;
import dev.nacre.cluster.check.OpKind;
import dev.nacre.node.testkit.Http;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The Nacos v1 Open API calls a scenario's clients make, each one recorded in a history: CP
 * (persistent instances) register, update, deregister and linearizable reads; AP (ephemeral
 * instances) register, beat, deregister and local reads. The value of an instance, as the checkers
 * see it, is its metadata entry {@code v}. Instances are {@code ip:port} on loopback only.
 *
 * <p>Every call is bounded by {@link #REQUEST_TIMEOUT} (a timeout is UNKNOWN for a write). Thread-safe:
 * one client serves every worker of a scenario.
 */
final class WorkloadClient {
  /** Longer than the CP timeout (3 s), so that a node's own 503 arrives before the client gives up. */
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(6);
  static final String VALUE_KEY = "v";
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final LocalCluster cluster;
  private final HistoryRecorder recorder;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  WorkloadClient(LocalCluster cluster, HistoryRecorder recorder) {
    this.cluster = cluster;
    this.recorder = recorder;
  }

  /** An HTTP answer, or the exception that took its place. */
  record Answer(int status, String body, IOException error) {
    boolean ok() {
      return error == null && status == 200;
    }

    String describe() {
      return error != null ? error.getClass().getSimpleName() + ": " + error.getMessage()
          : "HTTP " + status + " " + abbreviate(body);
    }
  }

  // ---- CP: persistent instances ----

  /** POST a persistent instance with value {@code value}. */
  Op cpRegister(int process, int node, InstanceKey key, String value) {
    return write(process, node, OpKind.REGISTER, Mode.CP, key, value, "POST", params(key, false, value));
  }

  /** PUT (update) a persistent instance; recorded as a REGISTER (an upsert; 404 when absent is a FAIL). */
  Op cpUpdate(int process, int node, InstanceKey key, String value) {
    return write(process, node, OpKind.REGISTER, Mode.CP, key, value, "PUT", params(key, false, value));
  }

  /** DELETE a persistent instance. */
  Op cpDeregister(int process, int node, InstanceKey key) {
    return write(process, node, OpKind.DEREGISTER, Mode.CP, key, null, "DELETE", params(key, false, null));
  }

  /** A linearizable read of every persistent instance of a service. */
  Op cpRead(int process, int node, String service) {
    return read(process, node, Mode.CP, service, true);
  }

  // ---- AP: ephemeral instances ----

  /** POST an ephemeral instance (answered by, or forwarded to, the member responsible for it). */
  Op apRegister(int process, int node, InstanceKey key, String value) {
    return write(process, node, OpKind.REGISTER, Mode.AP, key, value, "POST", params(key, true, value));
  }

  /** A beat carrying the full instance (it re-creates the instance if it is gone); an AP REGISTER. */
  Op apBeat(int process, int node, InstanceKey key, String value) {
    String[] ipPort = ipPort(key);
    Map<String, Object> beat = new LinkedHashMap<>();
    beat.put("serviceName", key.service());
    beat.put("ip", ipPort[0]);
    beat.put("port", Integer.parseInt(ipPort[1]));
    beat.put("metadata", Map.of(VALUE_KEY, value));
    Map<String, String> p = new LinkedHashMap<>();
    p.put("serviceName", key.service());
    p.put("beat", json(beat));
    return writeTo(process, node, OpKind.REGISTER, Mode.AP, key, value, "PUT", LocalCluster.NS + "/instance/beat", p);
  }

  /** DELETE an ephemeral instance. */
  Op apDeregister(int process, int node, InstanceKey key) {
    return write(process, node, OpKind.DEREGISTER, Mode.AP, key, null, "DELETE", params(key, true, null));
  }

  /** A local read of every ephemeral instance of a service (not linearizable; never checked as such). */
  Op apRead(int process, int node, String service) {
    return read(process, node, Mode.AP, service, false);
  }

  // ---- views, outside any history ----

  /**
   * A node's instances of one service ({@code ip:port} to value), persistent ones if {@code persistent}
   * else ephemeral ones; empty when the node does not answer 200.
   */
  Optional<Map<InstanceKey, String>> view(int node, String service, boolean persistent, boolean linearizable) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("serviceName", service);
    if (linearizable) {
      p.put("consistency", "linearizable");
    }
    Answer a = send(node, "GET", LocalCluster.NS + "/instance/list", p);
    if (!a.ok()) {
      return Optional.empty();
    }
    Map<InstanceKey, String> out = new TreeMap<>();
    hosts(a.body(), persistent ? Mode.CP : Mode.AP).forEach((instance, v) -> out.put(InstanceKey.of(service, instance), v));
    return Optional.of(out);
  }

  /**
   * A node's persistent instances of every service given, read linearizably (so the node has
   * caught up with the log); empty when any read is not answered 200.
   */
  Optional<Map<InstanceKey, String>> persistentState(int node, java.util.Collection<String> services) {
    Map<InstanceKey, String> all = new TreeMap<>();
    for (String service : services) {
      Optional<Map<InstanceKey, String>> v = view(node, service, true, true);
      if (v.isEmpty()) {
        return Optional.empty();
      }
      all.putAll(v.get());
    }
    return Optional.of(all);
  }

  Answer send(int node, String method, String path, Map<String, String> params) {
    String uri = "http://" + cluster.address(node) + path + (params.isEmpty() ? "" : "?" + Http.query(params));
    HttpRequest request = HttpRequest.newBuilder(URI.create(uri)).timeout(REQUEST_TIMEOUT)
        .method(method, HttpRequest.BodyPublishers.noBody()).build();
    try {
      HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
      return new Answer(r.statusCode(), r.body(), null);
    } catch (IOException e) {
      return new Answer(0, "", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Answer(0, "", new java.io.InterruptedIOException("interrupted"));
    }
  }

  private Op write(int process, int node, OpKind kind, Mode mode, InstanceKey key, String value, String method,
      Map<String, String> params) {
    return writeTo(process, node, kind, mode, key, value, method, LocalCluster.NS + "/instance", params);
  }

  private Op writeTo(int process, int node, OpKind kind, Mode mode, InstanceKey key, String value, String method,
      String path, Map<String, String> params) {
    HistoryRecorder.Pending pending = recorder.invoke(process, cluster.address(node), kind, mode, key,
        Optional.ofNullable(value));
    Answer a = send(node, method, path, params);
    if (a.error() != null) {
      return pending.error(a.error());
    }
    if (a.status() == 200) {
      return pending.ok();
    }
    return pending.status(a.status(), abbreviate(a.body()));
  }

  private Op read(int process, int node, Mode mode, String service, boolean linearizable) {
    HistoryRecorder.Pending pending = recorder.invoke(process, cluster.address(node), OpKind.READ_SERVICE, mode,
        InstanceKey.wholeService(service), Optional.empty());
    Map<String, String> p = new LinkedHashMap<>();
    p.put("serviceName", service);
    if (linearizable) {
      p.put("consistency", "linearizable");
    }
    Answer a = send(node, "GET", LocalCluster.NS + "/instance/list", p);
    if (a.error() != null) {
      return pending.error(a.error());
    }
    if (a.status() != 200) {
      return pending.status(a.status(), abbreviate(a.body()));
    }
    return pending.okView(hosts(a.body(), mode));
  }

  /** {@code ip:port} to value of the hosts of one kind in a list answer. */
  private static Map<String, String> hosts(String body, Mode mode) {
    Map<String, String> out = new TreeMap<>();
    try {
      for (JsonNode h : MAPPER.readTree(body).get("hosts")) {
        if (h.get("ephemeral").asBoolean() == (mode == Mode.AP)) {
          JsonNode v = h.path("metadata").get(VALUE_KEY);
          out.put(h.get("ip").asText() + ":" + h.get("port").asInt(), v == null ? "" : v.asText());
        }
      }
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("a list answer that is not the expected JSON: " + abbreviate(body), e);
    }
    return out;
  }

  private static Map<String, String> params(InstanceKey key, boolean ephemeral, String value) {
    String[] ipPort = ipPort(key);
    Map<String, String> p = new LinkedHashMap<>();
    p.put("serviceName", key.service());
    p.put("ip", ipPort[0]);
    p.put("port", ipPort[1]);
    p.put("ephemeral", String.valueOf(ephemeral));
    if (value != null) {
      p.put("metadata", json(Map.of(VALUE_KEY, value)));
    }
    return p;
  }

  private static String[] ipPort(InstanceKey key) {
    int colon = key.instance().lastIndexOf(':');
    String ip = key.instance().substring(0, colon);
    if (!ip.startsWith("127.")) {
      throw new IllegalArgumentException("scenarios register loopback addresses only (instances are probed): " + key);
    }
    return new String[] {ip, key.instance().substring(colon + 1)};
  }

  private static String json(Object o) {
    try {
      return MAPPER.writeValueAsString(o);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  static String abbreviate(String s) {
    String one = s.replace('\n', ' ');
    return one.length() > 200 ? one.substring(0, 200) + "..." : one;
  }
}
