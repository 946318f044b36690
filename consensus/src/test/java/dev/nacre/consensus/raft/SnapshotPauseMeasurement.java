package dev.nacre.consensus.raft;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Not part of the build (the name does not match surefire's patterns). How long one writer's
 * writes wait while members take snapshots: 3 members holding -Dnacre.test.keys keys (default
 * 100,000) of 1 KB, a snapshot every -Dnacre.test.threshold entries (default 2,000), then one
 * writer for -Dnacre.test.seconds (default 30) or 200,000 writes. Prints the latency percentiles,
 * the worst write and the snapshots taken. Run with
 * {@code mvn -pl consensus test -Dtest=SnapshotPauseMeasurement -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class SnapshotPauseMeasurement {
  private static final int MAX_WRITES = 200_000;

  @TempDir Path dir;

  @Test
  @Timeout(value = 600, unit = TimeUnit.SECONDS)
  void measure() throws Exception {
    int keys = Integer.getInteger("nacre.test.keys", 100_000);
    long threshold = Long.getLong("nacre.test.threshold", 2_000);
    long seconds = Long.getLong("nacre.test.seconds", 30);
    String value = "x".repeat(1000);
    try (TestCluster cluster = TestCluster.started(dir, 3, b -> b.snapshotThreshold(threshold))) {
      int leader = cluster.awaitLeader(Duration.ofSeconds(15));
      // Preload with many writes in flight, so that they share entries and the load is quick.
      Semaphore inFlight = new Semaphore(512);
      List<CompletableFuture<?>> pending = new ArrayList<>();
      for (int k = 0; k < keys; k++) {
        inFlight.acquire();
        pending.add(cluster.log(leader).submit(KvStateMachine.put("k" + k, value))
            .whenComplete((r, e) -> inFlight.release()));
      }
      CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get(300, TimeUnit.SECONDS);
      long snapshotBefore = cluster.log(leader).admin().latestSnapshot().map(RaftAdmin.SnapshotStatus::index).orElse(-1L);

      long[] latencies = new long[MAX_WRITES];
      int n = 0;
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
      while (n < MAX_WRITES && System.nanoTime() < end) {
        long start = System.nanoTime();
        cluster.log(leader).submit(KvStateMachine.put("k" + (n % keys), value)).get(10, TimeUnit.SECONDS);
        latencies[n++] = System.nanoTime() - start;
      }
      long snapshotAfter = cluster.log(leader).admin().latestSnapshot().map(RaftAdmin.SnapshotStatus::index).orElse(-1L);
      long[] sorted = Arrays.copyOf(latencies, n);
      Arrays.sort(sorted);
      long over50 = Arrays.stream(sorted).filter(l -> l > 50_000_000L).count();
      System.out.printf("MEASURED %d keys, threshold %d: %d writes in %d s; ms p50 %.2f p99 %.2f p99.9 %.2f max %.1f;"
              + " %d writes over 50 ms; leader's snapshot index %d -> %d (about %d snapshots)%n",
          keys, threshold, n, seconds, ms(sorted, 0.50), ms(sorted, 0.99), ms(sorted, 0.999),
          sorted[n - 1] / 1e6, over50, snapshotBefore, snapshotAfter, (snapshotAfter - snapshotBefore) / threshold);
      assertThat(n).isPositive();
    }
  }

  private static double ms(long[] sorted, double q) {
    return sorted[Math.min(sorted.length - 1, (int) (q * sorted.length))] / 1e6;
  }
}
