package dev.nacre.node.naming.http;

import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.ServiceView;
import dev.nacre.node.status.MemberView;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Model values as the Nacos Open API writes them (field names and order as Nacos). */
public final class Views {
  /** How long a consumer may cache a list, as Nacos' default switch says. */
  static final long CACHE_MILLIS = 10_000;

  private Views() {}

  public static Map<String, Object> host(Instance i) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("instanceId", i.key().instanceId());
    m.put("ip", i.key().ip());
    m.put("port", i.key().port());
    m.put("weight", i.weight());
    m.put("healthy", i.healthy());
    m.put("enabled", i.enabled());
    m.put("ephemeral", i.ephemeral());
    m.put("clusterName", i.key().cluster());
    m.put("serviceName", i.key().service().groupedName());
    m.put("metadata", i.metadata());
    m.put("instanceHeartBeatInterval", i.heartBeatIntervalMillis());
    m.put("instanceHeartBeatTimeOut", i.heartBeatTimeoutMillis());
    m.put("ipDeleteTimeout", i.ipDeleteTimeoutMillis());
    m.put("instanceIdGenerator", "simple");
    return m;
  }

  public static Map<String, Object> instanceDetail(Instance i) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("service", i.key().service().groupedName());
    m.put("ip", i.key().ip());
    m.put("port", i.key().port());
    m.put("clusterName", i.key().cluster());
    m.put("weight", i.weight());
    m.put("healthy", i.healthy());
    m.put("enabled", i.enabled());
    m.put("ephemeral", i.ephemeral());
    m.put("instanceId", i.key().instanceId());
    m.put("metadata", i.metadata());
    return m;
  }

  public static Map<String, Object> serviceList(ServiceView v) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", v.service().groupedName());
    m.put("groupName", v.service().group());
    m.put("clusters", v.clusters());
    m.put("cacheMillis", CACHE_MILLIS);
    List<Map<String, Object>> hosts = v.hosts().stream().map(Views::host).toList();
    m.put("hosts", hosts);
    m.put("lastRefTime", v.lastRefTime());
    m.put("checksum", v.checksum());
    m.put("allIPs", false);
    m.put("reachProtectionThreshold", v.reachProtectionThreshold());
    m.put("valid", true);
    return m;
  }

  /** A cluster member as {@code /v1/core/cluster/nodes} and {@code /v2/core/cluster/node/list} show it. */
  public static Map<String, Object> member(MemberView m) {
    Map<String, Object> raft = new LinkedHashMap<>();
    raft.put("role", m.raftRole());
    raft.put("leader", m.raftLeader());
    raft.put("term", m.raftTerm());
    if (m.raftCommitIndex() >= 0) {
      raft.put("commitIndex", m.raftCommitIndex());
    }
    if (m.raftAppliedIndex() >= 0) {
      raft.put("appliedIndex", m.raftAppliedIndex());
    }
    if (m.applyStalledMillis() >= 0) {
      raft.put("applyStalledMs", m.applyStalledMillis()); // above 0: the state machine is not keeping up
    }
    Map<String, Object> extend = new LinkedHashMap<>();
    extend.put("raftPort", String.valueOf(m.raftPort()));
    extend.put("raftMetaData", raft);
    if (m.distroPendingKeys() >= 0) {
      extend.put("distroPendingKeys", m.distroPendingKeys()); // what this node still has to send the member
    }
    if (m.distroLastAckMillis() >= 0) {
      extend.put("distroLastSyncTime", m.distroLastAckMillis()); // the member's last acknowledged batch
    }
    extend.put("version", OperatorApi.VERSION);
    extend.put("readyToUpgrade", true);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("ip", m.ip());
    out.put("port", m.port());
    out.put("state", m.state());
    out.put("extendInfo", extend);
    out.put("address", m.address());
    out.put("failAccessCnt", 0);
    return out;
  }
}
