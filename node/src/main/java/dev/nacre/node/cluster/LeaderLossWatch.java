package dev.nacre.node.cluster;

import dev.nacre.consensus.raft.RaftStatus;
import dev.nacre.consensus.raft.ReplicatedLog;
import dev.nacre.node.cluster.peer.PeerChannels;
import dev.nacre.proto.peer.PingRequest;
import dev.nacre.proto.peer.PingResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.ratis.thirdparty.com.google.common.util.concurrent.FutureCallback;
import org.apache.ratis.thirdparty.com.google.common.util.concurrent.Futures;
import org.apache.ratis.thirdparty.com.google.common.util.concurrent.MoreExecutors;
import org.apache.ratis.thirdparty.io.grpc.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Has this member stand for Raft election as soon as the leader's process is seen gone, instead of
 * after the election timeout (400-800 ms, then a randomised sleep more). The evidence: this
 * member's peer connection to the leader's node closed, and a ping sent right after is refused
 * (UNAVAILABLE). A leader that is alive answers the ping and nothing happens; a host that vanished
 * without closing its connections is left to the election timeout. The survivors stand one after
 * the other, in address order of all members but the leader, {@link #STAGGER} apart, so that two
 * do not split the vote; one that sees a new leader by its turn does not stand. (Member states
 * are not used for the order: right after a member restarts, others may still count it DOWN, and
 * two survivors with different views stood at once and split the vote.)
 */
public final class LeaderLossWatch {
  private static final Logger log = LoggerFactory.getLogger(LeaderLossWatch.class);
  private static final long CONFIRM_TIMEOUT_MS = 300;
  /**
   * Between two survivors' turns. A stand-in election takes a few ms on loopback, tens across a
   * LAN, but a member restarted a second before runs it on code not yet compiled: at 150 ms its
   * vote request reached the next survivor after that one's turn in 1 of 10 bench rounds, both
   * stood, and the split vote cost a second election (1.0-1.5 s to a leader instead of 0.1-0.3).
   */
  static final Duration STAGGER = Duration.ofMillis(300);

  private final MemberTable members;
  private final PeerChannels channels;
  private final ReplicatedLog raft;
  private final UnaryOperator<String> raftPeerIdOf;
  private final ScheduledExecutorService scheduler;

  /** {@code raftPeerIdOf} maps a member address to its Raft peer id. */
  public LeaderLossWatch(MemberTable members, PeerChannels channels, ReplicatedLog raft,
      UnaryOperator<String> raftPeerIdOf, ScheduledExecutorService scheduler) {
    this.members = members;
    this.channels = channels;
    this.raft = raft;
    this.raftPeerIdOf = raftPeerIdOf;
    this.scheduler = scheduler;
  }

  public void start() {
    members.others().forEach(this::watch);
  }

  /** Watches the connection to {@code member} (one added to the cluster since the start, too). */
  public void watch(String member) {
    channels.watchConnection(member, () -> connectionLost(member));
  }

  private void connectionLost(String member) {
    try {
      confirmAndStand(member);
    } catch (RuntimeException e) { // this member is closing (channels or scheduler shut)
      log.debug("[{}] no early election after losing {}: {}", members.self(), member, e.toString());
    }
  }

  private void confirmAndStand(String member) {
    RaftStatus status = raft.status();
    if (!"FOLLOWER".equals(status.role()) || !raftPeerIdOf.apply(member).equals(status.leaderId())) {
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
        if (Status.fromThrowable(t).getCode() != Status.Code.UNAVAILABLE) {
          return;
        }
        long turn = turn(members.self(), member, allMembers());
        try {
          scheduler.schedule(() -> stand(member, status.leaderId()), turn * STAGGER.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
          log.debug("[{}] closing: no early election", members.self());
        }
      }
    }, MoreExecutors.directExecutor());
  }

  private void stand(String member, String leaderId) {
    if (raft.standForElectionIfLeaderGone(leaderId)) {
      log.info("[{}] Raft leader {} is gone (connection closed, then refused): stood for election",
          members.self(), member);
    }
  }

  private List<String> allMembers() {
    return members.members().stream().map(MemberTable.Member::address).toList();
  }

  /** This member's turn (0 = first) among {@code all} but {@code leader}, in address order. */
  static int turn(String self, String leader, List<String> all) {
    List<String> order = all.stream().filter(m -> !m.equals(leader)).sorted().toList();
    int turn = order.indexOf(self);
    return turn < 0 ? order.size() : turn;
  }
}
