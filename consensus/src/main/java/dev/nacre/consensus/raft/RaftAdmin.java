package dev.nacre.consensus.raft;

import dev.nacre.consensus.raft.internal.MembershipChange;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftConfiguration;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.statemachine.SnapshotInfo;

/**
 * A Raft member's administration: its snapshots, the group's leadership and its membership. Apart
 * from {@link RatisReplicatedLog} so that the log keeps to entries and reads; obtained through
 * {@link RatisReplicatedLog#admin()}.
 */
public final class RaftAdmin {
  private final RaftConfig config;
  private final RaftGroupId groupId;
  private final RaftPeerId selfId;
  private final RaftServer server;
  /** The log's client for reads and admin requests. */
  private final RaftClient client;
  /** Fresh clients for a {@link MembershipChange}: one per attempt, closed after it. */
  private final Supplier<RaftClient> newClients;

  RaftAdmin(RaftConfig config, RaftGroupId groupId, RaftPeerId selfId, RaftServer server, RaftClient client,
      Supplier<RaftClient> newClients) {
    this.config = config;
    this.groupId = groupId;
    this.selfId = selfId;
    this.server = server;
    this.client = client;
    this.newClients = newClients;
  }

  /**
   * The latest Raft snapshot this member holds: its log index and how long ago it was written
   * (from its folder's time), or empty before the first one.
   */
  public Optional<SnapshotStatus> latestSnapshot() {
    try {
      SnapshotInfo info = server.getDivision(groupId).getStateMachine().getLatestSnapshot();
      if (info == null || info.getFiles() == null || info.getFiles().isEmpty()) {
        return Optional.empty();
      }
      long ageMillis = System.currentTimeMillis()
          - Files.getLastModifiedTime(info.getFiles().get(0).getPath()).toMillis();
      return Optional.of(new SnapshotStatus(info.getIndex(), Math.max(0, ageMillis)));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** @see #latestSnapshot() */
  public record SnapshotStatus(long index, long ageMillis) {}

  /**
   * Has this member write a snapshot of its state now, whatever the automatic threshold says, so
   * that its log can be purged up to it; returns the snapshot's log index. Blocks up to the
   * request timeout.
   */
  public long takeSnapshot() {
    try {
      RaftClientReply reply = client.getSnapshotManagementApi(selfId)
          .create(true, config.requestTimeout().toMillis());
      if (!reply.isSuccess()) {
        throw new ConsensusUnavailableException("[" + config.selfId() + "] the Raft member did not write a snapshot: "
            + reply.getException() + "; check its log and the free space of " + config.storageDir(), reply.getException());
      }
      return reply.getLogIndex();
    } catch (IOException e) {
      throw new ConsensusUnavailableException("[" + config.selfId() + "] could not ask the Raft member for a snapshot"
          + " within " + config.requestTimeout().toMillis() + " ms (" + e.getMessage() + ")", e);
    }
  }

  /**
   * Asks the leader to hand leadership to the member {@code peerId} (a configured member) and
   * returns once that member leads. Blocks up to the request timeout; fails when the group has no
   * leader, the member is not up to date or does not answer.
   */
  public void transferLeadership(String peerId) {
    Map<String, String> peers = currentPeers();
    if (!peers.containsKey(peerId)) {
      throw new IllegalArgumentException(peerId + " is not a member of the Raft group; members: " + peers.keySet());
    }
    try {
      RaftClientReply reply = client.admin().transferLeadership(RaftPeerId.valueOf(peerId),
          config.requestTimeout().toMillis());
      if (!reply.isSuccess()) {
        throw new ConsensusUnavailableException("[" + config.selfId() + "] leadership did not move to " + peerId + ": "
            + reply.getException(), reply.getException());
      }
    } catch (IOException e) {
      throw new ConsensusUnavailableException("[" + config.selfId() + "] leadership did not move to " + peerId
          + " within " + config.requestTimeout().toMillis() + " ms (" + e.getMessage() + "); is it up and caught up?", e);
    }
  }

  /**
   * The group's voting members as this member knows them (peer id to Raft address): from the
   * configuration in its log once it has one (it survives restarts), else the configured peers.
   * While a change is under way, the members it moves to.
   */
  public Map<String, String> currentPeers() {
    return members().peers();
  }

  /** As {@link #currentPeers()}, with the log index of the configuration they come from. */
  public RaftMembers members() {
    try {
      RaftConfiguration conf = server.getDivision(groupId).getRaftConf();
      return new RaftMembers(conf.getLogEntryIndex(), MembershipChange.peersOf(conf));
    } catch (IOException e) {
      throw new ConsensusUnavailableException("[" + config.selfId() + "] Raft member not running", e);
    }
  }

  /**
   * Makes {@code peers} (peer id to {@code host:raftPort}) the group's voting members, through the
   * leader; a new member must already run (with these peers configured) so that it can catch up.
   * Blocks until the change is committed and known here, at most {@code bound}.
   *
   * @throws ConsensusUnavailableException when it did not happen within the bound
   */
  public void changePeers(Map<String, String> peers, Duration bound) {
    if (peers.isEmpty()) {
      throw new IllegalArgumentException("a Raft group needs at least one member");
    }
    new MembershipChange(config.selfId(), newClients, () -> {
      try {
        return server.getDivision(groupId).getRaftConf();
      } catch (IOException e) {
        return null;
      }
    }).apply(peers, bound);
  }
}
