package dev.nacre.consensus.raft.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.consensus.raft.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class ForwardedRequestsTest {
  private final List<TrackedOperation> submitted = new ArrayList<>();
  private final List<CompletableFuture<byte[]>> pending = new ArrayList<>();
  private final ForwardedRequests forwarded = new ForwardedRequests(op -> {
    submitted.add(op);
    CompletableFuture<byte[]> result = new CompletableFuture<>();
    pending.add(result);
    return result;
  }, () -> 9, 2);

  private static TrackedOperation op(long sequence) {
    return new TrackedOperation(new byte[] {(byte) sequence}, "n1/run", sequence);
  }

  @Test
  void aRepeatWhileTheFirstIsInFlightJoinsItInsteadOfSubmittingAgain() {
    CompletableFuture<byte[]> first = forwarded.commit(List.of(op(1)));
    CompletableFuture<byte[]> repeat = forwarded.commit(List.of(op(1)));
    assertThat(submitted).hasSize(1);

    pending.get(0).complete(ApplyResult.ok(new byte[] {5}));
    for (CompletableFuture<byte[]> reply : List.of(first, repeat)) {
      EntryCodec.Reply decoded = EntryCodec.decodeReply(reply.join(), 1);
      assertThat(ApplyResult.decode(decoded.results().get(0))).containsExactly(5);
      assertThat(decoded.appliedIndex()).isEqualTo(9);
    }
  }

  @Test
  void aRepeatOfAnAppliedOperationGetsItsRememberedResultAndIsNotAppliedTwice() {
    forwarded.applied(List.of(op(1), TrackedOperation.own(new byte[] {2})), List.of(Outcome.ok(), Outcome.ok()));
    forwarded.applied(List.of(op(2)), List.of(Outcome.rejected("exists")));

    EntryCodec.Reply reply = EntryCodec.decodeReply(forwarded.commit(List.of(op(1), op(2))).join(), 2);
    assertThat(submitted).as("nothing submitted again").isEmpty();
    assertThat(ApplyResult.decode(reply.results().get(0))).isEmpty();
    assertThatThrownBy(() -> ApplyResult.decode(reply.results().get(1))).hasMessage("exists");
  }

  @Test
  void onlyTheLatestResultsAreRememberedAndTheLeadersOwnOperationsAreNeverJoined() {
    forwarded.applied(List.of(op(1), op(2), op(3)), List.of(Outcome.ok(), Outcome.ok(), Outcome.ok()));
    forwarded.commit(List.of(op(1))); // forgotten (2 remembered): submitted again
    forwarded.commit(List.of(op(3))); // remembered
    TrackedOperation own = TrackedOperation.own(new byte[] {7});
    forwarded.commit(List.of(own));
    forwarded.commit(List.of(own));
    assertThat(submitted).extracting(TrackedOperation::key).containsExactly(
        new TrackedOperation.Key("n1/run", 1), own.key(), own.key());
  }
}
