package dev.nacre.cluster;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Polling a condition with a deadline (never a fixed sleep): every 20 ms until true or too late. */
final class Polling {
  static final Duration INTERVAL = Duration.ofMillis(20);

  private Polling() {}

  /** Waits until {@code condition} holds; fails with {@code what} and {@code state} after {@code atMost}. */
  static Duration until(String what, Duration atMost, BooleanSupplier condition, Supplier<String> state) {
    long start = System.nanoTime();
    long deadline = start + atMost.toNanos();
    while (true) {
      boolean ok;
      try {
        ok = condition.getAsBoolean();
      } catch (RuntimeException e) {
        ok = false;
      }
      if (ok) {
        return Duration.ofNanos(System.nanoTime() - start);
      }
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("not true within " + atMost.toMillis() + " ms: " + what + "\n" + state.get());
      }
      LockSupport.parkNanos(INTERVAL.toNanos());
      if (Thread.interrupted()) {
        throw new IllegalStateException("interrupted while waiting for " + what);
      }
    }
  }

  /** Polls {@code attempt} until it gives a value or {@code atMost} passes (then empty). */
  static <T> Optional<T> poll(Duration atMost, Supplier<Optional<T>> attempt) {
    long deadline = System.nanoTime() + atMost.toNanos();
    while (true) {
      Optional<T> v;
      try {
        v = attempt.get();
      } catch (RuntimeException e) {
        v = Optional.empty();
      }
      if (v.isPresent() || System.nanoTime() - deadline > 0) {
        return v;
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(INTERVAL.toMillis()));
      if (Thread.interrupted()) {
        throw new IllegalStateException("interrupted while polling");
      }
    }
  }
}
