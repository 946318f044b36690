package dev.nacre.node.cluster;

import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.MoreExecutors;
import dev.nacre.consensus.raft.RaftStatus;
import dev.nacre.consensus.raft.ReplicatedLog;
import dev.nacre.proto.peer.PingRequest;
import dev.nacre.proto.peer.PingResponse;
import io.grpc.Status;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Has this member stand for Raft election as soon as the leader's process is seen gone, instead of
 * after the election timeout (400-800 ms, then a randomised sleep more). The evidence: this
 * member's peer connection to the leader's node closed, and a ping sent right after is refused
 * (UNAVAILABLE). A leader that is alive answers the ping and nothing happens; a host that vanished
 * without closing its connections is left to the election timeout. Only one survivor stands, so
 * that two do not split the vote: the first in address order of this member and the members it
 * sees UP, the leader excepted.
 */
public final class LeaderLossWatch {
  private static final Logger log = LoggerFactory.getLogger(LeaderLossWatch.class);
  private static final long CONFIRM_TIMEOUT_MS = 300;

  private final MemberTable members;
  private final PeerChannels channels;
  private final ReplicatedLog raft;
  private final UnaryOperator<String> raftPeerIdOf;

  /** {@code raftPeerIdOf} maps a member address to its Raft peer id. */
  public LeaderLossWatch(MemberTable members, PeerChannels channels, ReplicatedLog raft,
      UnaryOperator<String> raftPeerIdOf) {
    this.members = members;
    this.channels = channels;
    this.raft = raft;
    this.raftPeerIdOf = raftPeerIdOf;
  }

  public void start() {
    for (String member : members.others()) {
      channels.watchConnection(member, () -> connectionLost(member));
    }
  }

  private void connectionLost(String member) {
    RaftStatus status = raft.status();
    if (!"FOLLOWER".equals(status.role()) || !raftPeerIdOf.apply(member).equals(status.leaderId())
        || !members.self().equals(successor(members.self(), member, upMembers()))) {
      return;
    }
    var ping = channels.stub(member).withDeadlineAfter(CONFIRM_TIMEOUT_MS, TimeUnit.MILLISECONDS)
        .ping(PingRequest.newBuilder().setFrom(members.self()).build());
    Futures.addCallback(ping, new FutureCallback<PingResponse>() {
      @Override
      public void onSuccess(PingResponse r) {
        log.debug("[{}] connection to leader {} closed, but it answers: no early election", members.self(), member);
      }

      @Override
      public void onFailure(Throwable t) {
        if (Status.fromThrowable(t).getCode() == Status.Code.UNAVAILABLE
            && raft.standForElectionIfLeaderGone(status.leaderId())) {
          log.info("[{}] Raft leader {} is gone (connection closed, then refused): stood for election",
              members.self(), member);
        }
      }
    }, MoreExecutors.directExecutor());
  }

  private List<String> upMembers() {
    return members.others().stream().filter(m -> members.state(m) == MemberState.UP).toList();
  }

  /** The member that stands when {@code leader} is gone: the first of self and {@code up}, leader excepted. */
  static String successor(String self, String leader, List<String> up) {
    return Stream.concat(Stream.of(self), up.stream()).filter(m -> !m.equals(leader)).sorted().findFirst()
        .orElse(self);
  }
}
