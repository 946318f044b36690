package dev.nacre.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nacre.cluster.check.HistoryRecorder;
import dev.nacre.cluster.check.InstanceKey;
import dev.nacre.cluster.check.Mode;
import dev.nacre.cluster.check.Op;
import dev.nacre.cluster.check.OpKind;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * AP client behaviours the AP and nemesis scenarios need besides {@link Workload}'s mixes:
 * clients that keep their instances alive by beating (the same value every time, so that converged
 * views stay equal), with optional {@code preserved.*} heartbeat metadata. Every call is recorded in
 * the scenario's history as an AP REGISTER.
 */
final class ApWorkloads {
  static final String BEATING = "beating";
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private ApWorkloads() {}

  /**
   * Processes spread over {@code nodes} that beat every key in turn, each one every
   * {@code pace} per process; at most 10000 beats or 10 minutes per process.
   */
  static Workload.Spec beating(Scenario s, String name, int processes, List<Integer> nodes, List<InstanceKey> keys,
      Duration pace, Map<String, String> metadata) {
    Workload.Step step = ctx -> {
      InstanceKey key = ctx.keys().get(Math.floorMod(ctx.counter().getAndIncrement(), ctx.keys().size()));
      return beat(s, ctx.process(), ctx.node(), key, metadata);
    };
    return new Workload.Spec(name, processes, nodes, keys, step, pace, pace, 10_000, Duration.ofMinutes(10));
  }

  /** As above with Nacos' default heartbeat timing. */
  static Workload.Spec beating(Scenario s, String name, int processes, List<Integer> nodes, List<InstanceKey> keys) {
    return beating(s, name, processes, nodes, keys, Duration.ofMillis(100), Map.of());
  }

  /** One v1 beat carrying the whole instance (value {@link #BEATING} plus {@code metadata}). */
  static Op beat(Scenario s, int process, int node, InstanceKey key, Map<String, String> metadata) {
    String[] ipPort = ipPort(key);
    Map<String, String> meta = new TreeMap<>(metadata);
    meta.put(WorkloadClient.VALUE_KEY, BEATING);
    Map<String, Object> beat = new LinkedHashMap<>();
    beat.put("serviceName", key.service());
    beat.put("ip", ipPort[0]);
    beat.put("port", Integer.parseInt(ipPort[1]));
    beat.put("metadata", meta);
    Map<String, String> p = new LinkedHashMap<>();
    p.put("serviceName", key.service());
    p.put("beat", json(beat));
    return send(s, process, node, key, "PUT", LocalCluster.NS + "/instance/beat", p);
  }

  /** A v1 register of an ephemeral instance with value {@link #BEATING} plus {@code metadata}. */
  static Op register(Scenario s, int process, int node, InstanceKey key, Map<String, String> metadata) {
    String[] ipPort = ipPort(key);
    Map<String, String> meta = new TreeMap<>(metadata);
    meta.put(WorkloadClient.VALUE_KEY, BEATING);
    Map<String, String> p = new LinkedHashMap<>();
    p.put("serviceName", key.service());
    p.put("ip", ipPort[0]);
    p.put("port", ipPort[1]);
    p.put("ephemeral", "true");
    p.put("metadata", json(meta));
    return send(s, process, node, key, "POST", LocalCluster.NS + "/instance", p);
  }

  private static Op send(Scenario s, int process, int node, InstanceKey key, String method, String path,
      Map<String, String> params) {
    HistoryRecorder.Pending pending = s.recorder().invoke(process, s.cluster().address(node), OpKind.REGISTER, Mode.AP,
        key, Optional.of(BEATING));
    WorkloadClient.Answer a = s.client().send(node, method, path, params);
    if (a.error() != null) {
      return pending.error(a.error());
    }
    if (a.status() == 200) {
      return pending.ok();
    }
    return pending.status(a.status(), WorkloadClient.abbreviate(a.body()));
  }

  private static String[] ipPort(InstanceKey key) {
    int colon = key.instance().lastIndexOf(':');
    String ip = key.instance().substring(0, colon);
    if (!ip.startsWith("127.")) {
      throw new IllegalArgumentException("scenarios register loopback addresses only: " + key);
    }
    return new String[] {ip, key.instance().substring(colon + 1)};
  }

  private static String json(Object o) {
    try {
      return MAPPER.writeValueAsString(o);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
