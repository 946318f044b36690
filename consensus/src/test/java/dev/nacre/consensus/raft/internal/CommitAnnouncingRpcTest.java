package dev.nacre.consensus.raft.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.ratis.proto.RaftProtos.AppendEntriesRequestProto;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.proto.RaftProtos.TermIndexProto;
import org.junit.jupiter.api.Test;

/** The commit index a leader may send with an append request that names no previous entry. */
class CommitAnnouncingRpcTest {
  private static AppendEntriesRequestProto.Builder request(long leaderCommit, long... entryIndices) {
    AppendEntriesRequestProto.Builder b = AppendEntriesRequestProto.newBuilder().setLeaderTerm(2).setLeaderCommit(leaderCommit);
    for (long index : entryIndices) {
      b.addEntries(LogEntryProto.newBuilder().setTerm(2).setIndex(index));
    }
    return b;
  }

  @Test
  void aHeartbeatWithoutAPreviousEntryCommitsNothing() {
    // The shape that let a paused first leader commit its own, never-replicated index 0.
    AppendEntriesRequestProto sent = CommitAnnouncingRpc.withProvenCommit(request(0).build());
    assertThat(sent.getLeaderCommit()).isEqualTo(-1);
    assertThat(CommitAnnouncingRpc.withProvenCommit(request(7).build()).getLeaderCommit()).isEqualTo(-1);
  }

  @Test
  void entriesWithoutAPreviousEntryCommitAtMostTheLastOneCarried() {
    assertThat(CommitAnnouncingRpc.withProvenCommit(request(5, 0, 1).build()).getLeaderCommit()).isEqualTo(1);
    // Below the entries carried: the leader's own commit index stands.
    assertThat(CommitAnnouncingRpc.withProvenCommit(request(0, 0, 1, 2).build()).getLeaderCommit()).isZero();
    assertThat(CommitAnnouncingRpc.withProvenCommit(request(-1, 0).build()).getLeaderCommit()).isEqualTo(-1);
  }

  @Test
  void aRequestThatNamesItsPreviousEntryIsSentAsRatisBuiltIt() {
    AppendEntriesRequestProto withPrevious = request(9)
        .setPreviousLog(TermIndexProto.newBuilder().setTerm(2).setIndex(4)).build();
    assertThat(CommitAnnouncingRpc.withProvenCommit(withPrevious)).isSameAs(withPrevious);
    assertThat(CommitAnnouncingRpc.withProvenCommit(null)).isNull();
  }
}
