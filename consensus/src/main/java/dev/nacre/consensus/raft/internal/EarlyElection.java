package dev.nacre.consensus.raft.internal;

import java.io.IOException;
import org.apache.ratis.client.impl.ClientProtoUtils;
import org.apache.ratis.proto.RaftProtos.StartLeaderElectionRequestProto;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.RaftServerProtocol;
import org.apache.ratis.server.protocol.TermIndex;

/**
 * Makes a follower stand for election now instead of after its election timeout, for a caller that
 * knows the leader's process is gone (its connections closed and a new one was refused).
 *
 * <p>Why: a Ratis follower notices a dead leader only when a randomised sleep of 400-800 ms ends
 * with no message in it, so about 0.7 s passed between {@code kill -9} of the leader and a new
 * one. Ratis' own leadership transfer hands a follower the leader's request to start an election
 * at once; this member hands that request to itself, in process, on behalf of the leader it still
 * follows. Safety is Raft's: any member may stand for election at any time, with the next term;
 * it wins only with the votes of a majority whose logs are no newer than its own. A false alarm
 * costs one election, never data.
 */
public final class EarlyElection {
  private EarlyElection() {}

  /**
   * Starts an election on {@code division} if it is a follower of {@code leader} whose last entry
   * is of the current term (Ratis refuses the request otherwise). Returns whether it started.
   */
  public static boolean standIfFollowing(RaftServer.Division division, RaftPeerId leader) throws IOException {
    DivisionInfo info = division.getInfo();
    if (!info.isFollower() || !leader.equals(info.getLeaderId())
        || !(division instanceof RaftServerProtocol protocol)) {
      return false;
    }
    TermIndex last = division.getRaftLog().getLastEntryTermIndex();
    if (last == null || last.getTerm() != info.getCurrentTerm()) {
      return false;
    }
    RaftGroupMemberId from = RaftGroupMemberId.valueOf(leader, division.getMemberId().getGroupId());
    StartLeaderElectionRequestProto request = StartLeaderElectionRequestProto.newBuilder()
        .setServerRequest(ClientProtoUtils.toRaftRpcRequestProtoBuilder(from, division.getId()))
        .setLeaderLastEntry(last.toProto())
        .build();
    return protocol.startLeaderElection(request).getServerReply().getSuccess();
  }
}
