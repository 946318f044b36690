package dev.nacre.consensus.raft.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class BoundedCallsTest {
  @Test
  void callsAnsweredInTimeLeaveNoDeadlineQueued() {
    BoundedCalls calls = new BoundedCalls("t");
    try {
      for (int i = 0; i < 1000; i++) {
        int n = i;
        assertThat(calls.call(() -> CompletableFuture.completedFuture(n), 60_000,
            () -> new IllegalStateException("late"), e -> new IllegalStateException(e)).join()).isEqualTo(n);
      }
      assertThat(calls.pendingDeadlines()).isZero();
    } finally {
      calls.close(() -> new IllegalStateException("closed"));
    }
  }

  @Test
  void aCallWithoutAnswerFailsAtItsDeadline() {
    BoundedCalls calls = new BoundedCalls("t");
    try {
      CompletableFuture<Object> never = new CompletableFuture<>();
      assertThatThrownBy(() -> calls.call(() -> never, 50, () -> new IllegalStateException("no quorum"),
          e -> new IllegalStateException(e)).join()).hasMessageContaining("no quorum");
    } finally {
      calls.close(() -> new IllegalStateException("closed"));
    }
  }
}
