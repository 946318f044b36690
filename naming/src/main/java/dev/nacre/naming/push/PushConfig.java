package dev.nacre.naming.push;

import java.time.Duration;
import java.util.Objects;

/**
 * How pushes to subscribers are timed. Immutable; the constructor rejects zero or negative
 * durations and a retry ceiling below the first retry.
 *
 * @param mergeDelay the merge window: a service's subscribers get at most one push per window;
 *     the first change after a quiet window is pushed at once, changes within the window go
 *     together at its end. Nacos ({@code nacos.naming.push.pushTaskDelay}) delays every push by
 *     500 ms; Nacre's 50 ms keeps a change on one node within 350 ms of a subscriber of another
 *     node (Distro sends a lone change at once and batches bursts up to 200 ms)
 * @param ackTimeout how long one push may wait for the client's acknowledgement before it counts
 *     as failed (Nacos: {@code nacos.naming.push.pushTaskTimeout}, 5 s)
 * @param retryDelay wait before the first retry of a failed push, doubled at each further failure
 *     (Nacos: {@code nacos.naming.push.pushTaskRetryDelay}, 1 s)
 * @param maxRetryDelay ceiling of that doubling
 * @param dropAfter a subscriber whose pushes have gone unacknowledged this long is dropped, with
 *     all its subscriptions
 * @param udpLease a Nacos 1.x client subscribed through {@code /instance/list?udpPort=} stays
 *     subscribed this long after its last list call. The 1.4 client polls every 10 s, but backs
 *     off to one poll a minute while the service is empty; Nacos 1.x forgets it after 10 s
 *     ({@code defaultPushCacheMillis}) and so misses the first instance of an empty service.
 *     Nacre keeps it 90 s; a client that is gone stops acknowledging and is dropped sooner.
 */
public record PushConfig(
    Duration mergeDelay,
    Duration ackTimeout,
    Duration retryDelay,
    Duration maxRetryDelay,
    Duration dropAfter,
    Duration udpLease) {

  public PushConfig {
    positive(mergeDelay, "mergeDelay");
    positive(ackTimeout, "ackTimeout");
    positive(retryDelay, "retryDelay");
    positive(maxRetryDelay, "maxRetryDelay");
    positive(dropAfter, "dropAfter");
    positive(udpLease, "udpLease");
    if (maxRetryDelay.compareTo(retryDelay) < 0) {
      throw new IllegalArgumentException(
          "maxRetryDelay (" + maxRetryDelay + ") must not be shorter than retryDelay (" + retryDelay + ")");
    }
  }

  public static PushConfig defaults() {
    return new PushConfig(
        Duration.ofMillis(50),
        Duration.ofSeconds(5),
        Duration.ofSeconds(1),
        Duration.ofSeconds(10),
        Duration.ofSeconds(30),
        Duration.ofSeconds(90));
  }

  private static void positive(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException(name + " must be positive, was " + d);
    }
  }
}
