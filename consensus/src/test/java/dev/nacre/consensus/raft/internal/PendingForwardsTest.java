package dev.nacre.consensus.raft.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class PendingForwardsTest {
  private final List<TrackedOperation> submitted = new ArrayList<>();
  private final List<CompletableFuture<byte[]>> localCommits = new ArrayList<>();
  private final ForwardedRequests forwarded = new ForwardedRequests(op -> {
    submitted.add(op);
    CompletableFuture<byte[]> commit = new CompletableFuture<>();
    localCommits.add(commit);
    return commit;
  }, () -> 0, 16);
  private final PendingForwards pending = new PendingForwards(forwarded, Runnable::run);

  private static TrackedOperation op(long sequence) {
    return new TrackedOperation(("op" + sequence).getBytes(StandardCharsets.UTF_8), "n2/run", sequence);
  }

  @Test
  void aForwardStillInFlightWhenThisMemberLeadsIsCommittedHereAndAnsweredFromThere() {
    CompletableFuture<List<byte[]>> viaClient = new CompletableFuture<>();
    CompletableFuture<List<byte[]>> result = pending.track(List.of(op(1), op(2)), viaClient);
    assertThat(submitted).as("nothing committed here while another member leads").isEmpty();

    pending.becameLeader();
    assertThat(submitted).extracting(TrackedOperation::sequence).containsExactly(1L, 2L);
    assertThat(result).isNotDone();
    localCommits.get(0).complete(ApplyResult.ok(new byte[] {1}));
    localCommits.get(1).complete(ApplyResult.ok(new byte[] {2}));

    assertThat(result).isCompleted();
    assertThat(result.join()).extracting(ApplyResult::decode).containsExactly(new byte[] {1}, new byte[] {2});
    viaClient.complete(List.of(ApplyResult.ok(new byte[] {9}), ApplyResult.ok(new byte[] {9})));
    assertThat(result.join().get(0)).as("the first answer stays").isEqualTo(ApplyResult.ok(new byte[] {1}));
    assertThat(pending.size()).isZero();
  }

  @Test
  void aForwardAnsweredBeforeTheLeadershipIsNotCommittedAgain() {
    CompletableFuture<List<byte[]>> viaClient = new CompletableFuture<>();
    CompletableFuture<List<byte[]>> result = pending.track(List.of(op(1)), viaClient);
    viaClient.complete(List.of(ApplyResult.ok(new byte[] {7})));

    pending.becameLeader();
    assertThat(submitted).isEmpty();
    assertThat(result.join()).extracting(ApplyResult::decode).containsExactly(new byte[] {7});
  }

  @Test
  void aLocalCommitThatFailsLeavesTheAnswerToTheClientsCopy() {
    CompletableFuture<List<byte[]>> viaClient = new CompletableFuture<>();
    CompletableFuture<List<byte[]>> result = pending.track(List.of(op(1)), viaClient);
    pending.becameLeader();
    localCommits.get(0).completeExceptionally(new IllegalStateException("stopped leading"));
    assertThat(result).as("the client's copy may still land on the next leader").isNotDone();

    viaClient.complete(List.of(ApplyResult.ok(new byte[] {3})));
    assertThat(result.join()).extracting(ApplyResult::decode).containsExactly(new byte[] {3});
  }

  @Test
  void theClientsCopyReachingThisLeaderJoinsTheLocalCommitInsteadOfCommittingTwice() {
    TrackedOperation repeated = op(5);
    pending.track(List.of(repeated), new CompletableFuture<>());
    pending.becameLeader();
    // Ratis' client delivers its copy of the forward to this member, now the leader.
    CompletableFuture<byte[]> clientsCopy = forwarded.commit(List.of(repeated));

    assertThat(submitted).as("one commit for both copies").hasSize(1);
    localCommits.get(0).complete(ApplyResult.ok(new byte[] {4}));
    assertThat(clientsCopy).isCompleted();
  }
}
