package dev.nacre.cluster;

import static dev.nacre.cluster.LocalCluster.NS;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Lossy and slow links under a small load: every AP write accepted is everywhere after the heal. */
@Timeout(180)
class LossyLinksTest {
  @TempDir Path dir;

  @Test
  void apWritesOverLossyDelayedLinksConvergeAfterHeal() {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of())) {
      c.faults().lossy(0.3, c.members());
      List<String> accepted = new ArrayList<>();
      for (int k = 0; k < 30; k++) {
        int node = k % 3;
        String ip = "127.0.10." + (k + 1);
        var r = c.http(node).post(NS + "/instance", PartitionConvergenceTest.ephemeral("lossy", ip));
        // Every AP write is accepted: a lost forward is answered locally, lost batches are retried.
        assertThat(r.status()).as("write %d on node %d: %s", k, node, r.body()).isEqualTo(200);
        accepted.add(ip + ":80");
        if (k == 15) {
          c.faults().delay(Duration.ofMillis(20), Duration.ofMillis(30), c.members());
        }
      }
      accepted.sort(String::compareTo);
      assertThat(c.faults().dropped()).as("the loss was exercised").isPositive();

      c.faults().heal();
      Duration took = PartitionConvergenceTest.awaitConverged(c, "lossy", accepted, PartitionConvergenceTest.CONVERGENCE);
      System.out.printf("lossy links: convergence after heal %d ms, calls dropped %d%n", took.toMillis(), c.faults().dropped());
    }
  }
}
