package dev.nacre.node;

import dev.nacre.consensus.raft.RaftConfig;
import dev.nacre.node.config.MemberAddress;
import dev.nacre.node.config.NodeConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/** The Raft member's settings, taken from the node's: one group, the members as its peers. */
final class NodeRaft {
  /** Nacos' name for the Raft group of persistent naming data. */
  static final String GROUP = "naming_persistent_service";

  private NodeRaft() {}

  /** The Raft group's peers (id to {@code host:P-1000}) of member addresses. */
  static Map<String, String> peersOf(List<MemberAddress> members) {
    Map<String, String> out = new LinkedHashMap<>();
    members.forEach(m -> out.put(m.raftPeerId(), m.raftAddress()));
    return out;
  }

  /** @param adjust what the node's seams change in the settings, just before they are built */
  static RaftConfig config(NodeConfig config, UnaryOperator<RaftConfig.Builder> adjust) {
    RaftConfig.Builder builder = RaftConfig.builder();
    if (config.clustered()) {
      // Mutual TLS on the Raft port, with certificates derived from the cluster secret.
      builder.clusterSecret(config.cluster().secret());
      config.cluster().tlsFiles().ifPresent(builder::tlsFiles);
    }
    return adjust.apply(builder
        .groupId(GROUP)
        .selfId(config.self().raftPeerId())
        .peers(peersOf(config.members()))
        .storageDir(config.dataDir().resolve("raft"))
        .electionTimeout(config.electionTimeoutMin(), config.electionTimeoutMax())
        .requestTimeout(config.cpTimeout())
        .snapshotThreshold(config.snapshotThreshold())
        .logSegmentSizeBytes(config.logSegmentSizeBytes())
        .batchesInFlight(config.raftBatchesInFlight())
        .maxBatchOperations(config.raftMaxBatchOperations())
        .batchLinger(config.raftBatchLinger()))
        .build();
  }
}
