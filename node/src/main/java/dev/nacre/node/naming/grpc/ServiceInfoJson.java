package dev.nacre.node.naming.grpc;

import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.ServiceView;
import dev.nacre.node.client.PayloadCodec;

/**
 * Instances and instance lists in the shape the Nacos client reads over gRPC: the service's plain
 * name (the HTTP API writes {@code group@@name}), the clusters string as the client asked for it
 * (it is part of the client's cache key), and {@code hosts} always present (a list without hosts
 * is how a client learns that the last instance went).
 */
public final class ServiceInfoJson {
  /** How long a client may cache a list without pushes, as Nacos says. */
  static final long CACHE_MILLIS = 10_000;
  private static final String HOSTS = "grpc.service-info.hosts";

  private ServiceInfoJson() {}

  public static ObjectNode serviceInfo(PayloadCodec codec, ServiceView view, String clusters) {
    ObjectNode info = codec.object();
    info.put("name", view.service().name());
    info.put("groupName", view.service().group());
    info.put("clusters", clusters);
    info.put("cacheMillis", CACHE_MILLIS);
    // Written once per snapshot and filter, then spliced into every answer and push as it is.
    info.putRawValue("hosts", view.renderings().get(HOSTS, () -> new RawValue(
        new SerializedString(codec.text(hosts(codec, view))))));
    info.put("lastRefTime", view.lastRefTime());
    info.put("checksum", view.checksum());
    info.put("allIPs", false);
    info.put("reachProtectionThreshold", view.reachProtectionThreshold());
    info.put("valid", true);
    return info;
  }

  /** The hosts array as a tree (what the cached raw JSON is written from). */
  static ArrayNode hosts(PayloadCodec codec, ServiceView view) {
    ArrayNode hosts = codec.object().arrayNode(view.hosts().size());
    for (Instance i : view.hosts()) {
      hosts.add(instance(codec, i));
    }
    return hosts;
  }

  static ObjectNode instance(PayloadCodec codec, Instance i) {
    ObjectNode o = codec.object();
    o.put("instanceId", i.key().instanceId());
    o.put("ip", i.key().ip());
    o.put("port", i.key().port());
    o.put("weight", i.weight());
    o.put("healthy", i.healthy());
    o.put("enabled", i.enabled());
    o.put("ephemeral", i.ephemeral());
    o.put("clusterName", i.key().cluster());
    o.put("serviceName", i.key().service().groupedName());
    ObjectNode metadata = o.putObject("metadata");
    i.metadata().forEach(metadata::put);
    o.put("instanceHeartBeatInterval", i.heartBeatIntervalMillis());
    o.put("instanceHeartBeatTimeOut", i.heartBeatTimeoutMillis());
    o.put("ipDeleteTimeout", i.ipDeleteTimeoutMillis());
    return o;
  }
}
