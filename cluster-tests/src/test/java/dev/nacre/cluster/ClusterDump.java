package dev.nacre.cluster;

import dev.nacre.consensus.distro.DistroStatus;
import dev.nacre.consensus.raft.RaftStatus;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.node.Node;
import dev.nacre.node.cluster.MemberTable;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What every node of a {@link LocalCluster} says of itself, read in-process (it works while client
 * traffic is cut): its member table, Raft role/term/leader/commit/applied, Distro queues, and its
 * local view of the services a scenario checks. For failure messages; every part that cannot be
 * read says why instead of throwing.
 */
final class ClusterDump {
  private ClusterDump() {}

  static String of(LocalCluster c, Collection<String> services) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < c.size(); i++) {
      b.append("node ").append(i).append(' ').append(c.address(i));
      Node n;
      try {
        n = c.node(i);
      } catch (IllegalStateException stopped) {
        b.append(": stopped\n");
        continue;
      }
      b.append('\n');
      b.append("  raft: ").append(raft(n)).append('\n');
      n.cluster().ifPresent(cs -> {
        b.append("  members:");
        for (MemberTable.Member m : cs.members().members()) {
          b.append(' ').append(m.address()).append('=').append(m.state())
              .append(m.address().equals(cs.members().self()) ? "(self)" : "/" + m.raftRole() + "@" + m.raftTerm());
        }
        b.append('\n');
        b.append("  distro: ").append(distro(n)).append('\n');
      });
      for (String service : services) {
        b.append("  ").append(service).append(": ").append(view(n, service)).append('\n');
      }
    }
    b.append(c.faults()).append('\n');
    return b.toString();
  }

  private static String raft(Node n) {
    try {
      RaftStatus s = n.raftStatus();
      return s.role() + " term=" + s.term() + " leader=" + (s.leaderId().isEmpty() ? "-" : s.leaderId())
          + " commit=" + s.commitIndex() + " applied=" + s.appliedIndex();
    } catch (RuntimeException e) {
      return "unreadable (" + e + ")";
    }
  }

  private static String distro(Node n) {
    try {
      DistroStatus s = n.cluster().orElseThrow().replicator().status().get(1, TimeUnit.SECONDS);
      return "ready=" + s.ready() + " records=" + s.records() + " live=" + s.liveRecords() + " owned="
          + s.ownedRecords() + " pending=" + s.pendingKeysByPeer() + " resyncs=" + s.resyncsByPeer()
          + " pulls=" + s.pullsInProgress();
    } catch (Exception e) {
      return "unreadable (" + e + ")";
    }
  }

  /** The node's local view: {@code ip:port[P|E]=v} per instance (P persistent, E ephemeral). */
  private static String view(Node n, String service) {
    try {
      List<Instance> all = n.naming().allInstances(new ServiceKey(ServiceKey.DEFAULT_NAMESPACE,
          ServiceKey.DEFAULT_GROUP, service));
      StringBuilder b = new StringBuilder().append(all.size()).append(" instances");
      all.stream().sorted(java.util.Comparator.comparing(i -> i.key().ip() + ":" + i.key().port())).forEach(i ->
          b.append(' ').append(i.key().ip()).append(':').append(i.key().port()).append(i.ephemeral() ? "[E]" : "[P]")
              .append('=').append(i.metadata().getOrDefault(WorkloadClient.VALUE_KEY, "")));
      return b.toString();
    } catch (RuntimeException e) {
      return "unreadable (" + e + ")";
    }
  }
}
