package dev.nacre.node;

import dev.nacre.consensus.distro.DistroStatus;
import dev.nacre.consensus.raft.RaftStatus;
import dev.nacre.node.cluster.ClusterServices;
import dev.nacre.node.cluster.MemberState;
import dev.nacre.node.config.MemberAddress;
import dev.nacre.node.config.NodeConfig;
import dev.nacre.node.status.ClusterStatus;
import dev.nacre.node.status.MemberView;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The members as the status APIs show them: this member from its own Raft status, the others from
 * their last pings, with the Distro queue and last acknowledgement of each peer. Thread-safe.
 */
final class MemberViews implements ClusterStatus {
  private final NodeConfig config;
  private final Supplier<RaftStatus> raft;
  private final Supplier<Optional<ClusterServices>> cluster;

  MemberViews(NodeConfig config, Supplier<RaftStatus> raft, Supplier<Optional<ClusterServices>> cluster) {
    this.config = config;
    this.raft = raft;
    this.cluster = cluster;
  }

  /** The cluster's members now (the configured ones for a standalone node). */
  List<MemberAddress> current() {
    return cluster.get().map(c -> c.memberList().current()).orElse(config.members());
  }

  /** {@link #current} as member ids, for the status APIs. */
  List<String> currentIds() {
    return current().stream().map(MemberAddress::toString).toList();
  }

  @Override
  public List<MemberView> members() {
    RaftStatus status = raft.get();
    String leader = status.leaderId().isEmpty() ? "" : addressOf(status.leaderId());
    Optional<ClusterServices> members = cluster.get();
    if (members.isEmpty()) {
      return List.of(new MemberView(config.host(), config.port(), "UP", status.role(), leader, status.term(),
          config.raftPort(), status.applyStalledMillis(), status.commitIndex(), status.appliedIndex(), -1, -1));
    }
    Optional<DistroStatus> distro = distroStatus(members.get());
    Map<String, Integer> pending = distro.map(DistroStatus::pendingKeysByPeer).orElse(Map.of());
    Map<String, DistroStatus.PeerTraffic> traffic = distro.map(DistroStatus::trafficByPeer).orElse(Map.of());
    return members.get().members().members().stream().map(m -> {
      MemberAddress address = MemberAddress.parse(m.address());
      boolean self = m.address().equals(config.address());
      boolean up = m.state() == MemberState.UP;
      String role = self ? status.role() : m.state() == MemberState.DOWN ? "UNKNOWN" : m.raftRole();
      return new MemberView(address.host(), address.port(), m.state().name(), role, leader,
          self ? status.term() : m.raftTerm(), address.raftPort(),
          self ? status.applyStalledMillis() : up ? m.raftApplyStalledMs() : -1,
          self ? status.commitIndex() : up ? m.raftCommitIndex() : -1,
          self ? status.appliedIndex() : up ? m.raftAppliedIndex() : -1,
          self ? -1 : pending.getOrDefault(m.address(), -1),
          self ? -1 : traffic.getOrDefault(m.address(), DistroStatus.PeerTraffic.NONE).lastAckMillis());
    }).toList();
  }

  /** The Distro replicator's queues and traffic per peer; empty when it does not answer soon (busy). */
  private static Optional<DistroStatus> distroStatus(ClusterServices cluster) {
    try {
      return Optional.of(cluster.replicator().status().get(1, TimeUnit.SECONDS));
    } catch (ExecutionException | TimeoutException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  private String addressOf(String peerId) {
    return current().stream().filter(m -> m.raftPeerId().equals(peerId)).findFirst().map(MemberAddress::toString)
        .orElse(peerId);
  }
}
