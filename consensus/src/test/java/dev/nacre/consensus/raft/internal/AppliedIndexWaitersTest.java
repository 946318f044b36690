package dev.nacre.consensus.raft.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.consensus.raft.ConsensusUnavailableException;
import dev.nacre.consensus.raft.OperationRejectedException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class AppliedIndexWaitersTest {
  @Test
  void completesWaitersInIndexOrderAsTheAppliedIndexAdvances() {
    AppliedIndexWaiters waiters = new AppliedIndexWaiters();
    CompletableFuture<Void> at3 = waiters.await(3);
    CompletableFuture<Void> at5 = waiters.await(5);
    waiters.advance(4);
    assertThat(at3).isCompleted();
    assertThat(at5).isNotDone();
    waiters.advance(2); // never goes back
    assertThat(waiters.applied()).isEqualTo(4);
    assertThat(waiters.await(4)).isCompleted();
    waiters.advance(5);
    assertThat(at5).isCompleted();
  }

  @Test
  void closeFailsPendingAndLaterWaiters() {
    AppliedIndexWaiters waiters = new AppliedIndexWaiters();
    CompletableFuture<Void> pending = waiters.await(9);
    waiters.close(() -> new ConsensusUnavailableException("stopped"));
    assertThat(pending).isCompletedExceptionally();
    assertThat(waiters.await(10)).isCompletedExceptionally();
  }

  @Test
  void applyResultCarriesResultsAndRejections() {
    byte[] ok = ApplyResult.ok("old".getBytes(StandardCharsets.UTF_8));
    assertThat(new String(ApplyResult.decode(ok), StandardCharsets.UTF_8)).isEqualTo("old");
    assertThat(ApplyResult.decode(ApplyResult.ok(new byte[0]))).isEmpty();
    assertThatThrownBy(() -> ApplyResult.decode(ApplyResult.rejected("key exists")))
        .isInstanceOf(OperationRejectedException.class).hasMessage("key exists");
  }
}
