package dev.nacre.consensus.raft;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.consensus.raft.internal.AppliedIndexWaiters;
import dev.nacre.consensus.raft.internal.EntryCodec;
import dev.nacre.consensus.raft.internal.ForwardedRequests;
import dev.nacre.consensus.raft.internal.LeaderWatch;
import dev.nacre.consensus.raft.internal.StateMachineAdapter;
import dev.nacre.consensus.raft.internal.TrackedOperation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.proto.RaftProtos.StateMachineLogEntryProto;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A member that restarts replays the entries its state machine already holds without applying
 * them again; it must still remember the forwarded operations in them, or, leading later, it
 * would append a sender's repeat of one as a new operation.
 */
class ReplayedForwardsTest {
  @TempDir Path dir;

  @Test
  void forwardedOperationsOfReplayedEntriesAreRememberedAndNotSubmittedAgain() throws Exception {
    TrackedOperation forwarded = new TrackedOperation(KvStateMachine.put("a", "1"), "n2/run", 7);
    try (KvStateMachine machine = new KvStateMachine(dir.resolve("first"))) {
      StateMachineAdapter first = adapter(machine, new ForwardedRequests(op -> new CompletableFuture<>(), () -> 0, 16));
      first.applyTransaction(entry(first, 1, forwarded)).join();
    }
    // The restart: the same state (index 1 applied), and the entry replayed from the log.
    try (KvStateMachine restarted = new KvStateMachine(dir.resolve("first"))) {
      assertThat(restarted.lastAppliedIndex()).isEqualTo(1);
      List<TrackedOperation> submitted = new ArrayList<>();
      ForwardedRequests memory = new ForwardedRequests(op -> {
        submitted.add(op);
        return new CompletableFuture<>();
      }, () -> 1, 16);
      StateMachineAdapter replaying = adapter(restarted, memory);
      replaying.applyTransaction(entry(replaying, 1, forwarded)).join();

      assertThat(memory.appliedResult(forwarded.key())).as("remembered from the replay").isNotNull();
      assertThat(memory.commit(List.of(forwarded))).as("a repeat is answered at once").isDone();
      assertThat(submitted).as("and not appended again").isEmpty();
    }
  }

  private static StateMachineAdapter adapter(KvStateMachine machine, ForwardedRequests forwarded) {
    return new StateMachineAdapter("n1", machine, new AppliedIndexWaiters(), new LeaderWatch(), forwarded,
        RaftConfig.DEFAULT_SNAPSHOT_THRESHOLD);
  }

  private static TransactionContext entry(StateMachineAdapter adapter, long index, TrackedOperation... operations) {
    ByteString data = ByteString.copyFrom(EntryCodec.encodeEntry(List.of(operations)));
    LogEntryProto entry = LogEntryProto.newBuilder().setTerm(1).setIndex(index)
        .setStateMachineLogEntry(StateMachineLogEntryProto.newBuilder().setLogData(data)).build();
    return TransactionContext.newBuilder().setServerRole(RaftPeerRole.FOLLOWER).setStateMachine(adapter)
        .setLogEntry(entry).build();
  }
}
