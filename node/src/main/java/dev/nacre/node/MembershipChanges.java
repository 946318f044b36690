package dev.nacre.node;

import dev.nacre.node.StartingReplicatedLog;
import dev.nacre.node.cluster.MemberList;
import dev.nacre.node.config.MemberAddress;
import dev.nacre.node.config.NodeConfig;
import dev.nacre.node.status.MembersApi;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Adds and removes members of a running cluster through the Raft configuration, which every
 * member keeps in its log and follows ({@code ClusterServices}): a change is one Ratis
 * {@code setConfiguration}, and every member, restarted ones included, learns the list from there.
 */
final class MembershipChanges implements MembersApi.Membership {
  /** A new member may install a snapshot first; ten CP timeouts, at least 30 s. */
  private static final Duration MIN_BOUND = Duration.ofSeconds(30);

  private final NodeConfig config;
  private final StartingReplicatedLog raft;
  private final Supplier<List<MemberAddress>> current;
  private final Consumer<List<MemberAddress>> learnt;

  /**
   * @param current the members as this node knows them now
   * @param learnt told the new list once a change is committed, so this node need not wait to learn it
   */
  MembershipChanges(NodeConfig config, StartingReplicatedLog raft, Supplier<List<MemberAddress>> current,
      Consumer<List<MemberAddress>> learnt) {
    this.config = config;
    this.raft = raft;
    this.current = current;
    this.learnt = learnt;
  }

  @Override
  public List<MemberAddress> members() {
    return current.get();
  }

  @Override
  public synchronized List<MemberAddress> add(MemberAddress member) {
    List<MemberAddress> now = requireCluster();
    if (now.contains(member)) {
      return now;
    }
    List<MemberAddress> target = new ArrayList<>(now);
    target.add(member);
    return change(target);
  }

  @Override
  public synchronized List<MemberAddress> remove(MemberAddress member) {
    List<MemberAddress> now = requireCluster();
    if (!now.contains(member)) {
      throw new IllegalArgumentException(member + " is not a member of this cluster; members: " + now);
    }
    if (now.size() == 1) {
      throw new IllegalArgumentException(member + " is the last member; a cluster keeps at least one");
    }
    List<MemberAddress> target = new ArrayList<>(now);
    target.remove(member);
    return change(target);
  }

  private List<MemberAddress> requireCluster() {
    if (!config.clustered()) {
      throw new IllegalArgumentException("this node runs standalone (" + NodeConfig.MEMBERS + " lists only itself):"
          + " members are added to a cluster, which starts with " + NodeConfig.MEMBERS
          + " listing at least two members and a shared " + NodeConfig.SECRET);
    }
    return MemberList.membersOf(raft.awaitStarted().admin().currentPeers());
  }

  private List<MemberAddress> change(List<MemberAddress> target) {
    Duration tenCp = config.cpTimeout().multipliedBy(10);
    raft.awaitStarted().admin()
        .changePeers(NodeRaft.peersOf(target), tenCp.compareTo(MIN_BOUND) > 0 ? tenCp : MIN_BOUND);
    learnt.accept(target);
    return target;
  }
}
