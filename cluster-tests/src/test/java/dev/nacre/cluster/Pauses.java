package dev.nacre.cluster;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Which members of one cluster are paused, and until when; one instance per {@link LocalCluster},
 * nothing static. A pause is a deadline: everything that consults it (links, client gate, timers)
 * holds its work until the deadline and then lets it through, so the pause ends by itself and all
 * held work is delivered at about the same moment, as when a stalled process wakes up.
 * Thread-safe.
 */
final class Pauses implements TimerStall {
  private final Map<String, Long> until = new ConcurrentHashMap<>();
  private final LongSupplier nanoClock;

  Pauses() {
    this(System::nanoTime);
  }

  Pauses(LongSupplier nanoClock) {
    this.nanoClock = nanoClock;
  }

  /** Pauses {@code member} for {@code duration} from now; a longer pause already running wins. */
  void pause(String member, Duration duration) {
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("a pause must last, was " + duration);
    }
    long end = nanoClock.getAsLong() + duration.toNanos();
    until.merge(member, end, (a, b) -> a - b > 0 ? a : b);
  }

  /** How long {@code member} stays paused; zero when it is not. */
  Duration remaining(String member) {
    Long end = until.get(member);
    if (end == null) {
      return Duration.ZERO;
    }
    long left = end - nanoClock.getAsLong();
    if (left <= 0) {
      until.remove(member, end);
      return Duration.ZERO;
    }
    return Duration.ofNanos(left);
  }

  boolean isPaused(String member) {
    return !remaining(member).isZero();
  }

  @Override
  public Duration stalledFor(String node) {
    return remaining(node);
  }

  @Override
  public String toString() {
    long now = nanoClock.getAsLong();
    StringBuilder b = new StringBuilder("paused {");
    until.forEach((m, end) -> {
      if (end - now > 0) {
        b.append(m).append(" for ").append((end - now) / 1_000_000).append(" ms ");
      }
    });
    return b.append('}').toString();
  }
}
