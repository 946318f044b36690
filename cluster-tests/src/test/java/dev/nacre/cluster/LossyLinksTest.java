package dev.nacre.cluster;

import static dev.nacre.cluster.LocalCluster.NS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lossy and slow links (Raft and peer gRPC) under a small load: every AP write accepted and every
 * CP write acknowledged is on every node soon after the heal.
 */
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
      }
      // A few CP writes: under loss some may fail (503, the caller is told); none acknowledged may be lost.
      List<String> acknowledged = new ArrayList<>();
      for (int k = 0; k < 5; k++) {
        String ip = "127.0.11." + (k + 1);
        if (c.http(k % 3).post(NS + "/instance", RaftPartitionTest.persistent("lossy-cp", ip)).status() == 200) {
          acknowledged.add(ip + ":80");
        }
      }
      // Keep the loss on long enough for pings, verify rounds and Raft heartbeats to suffer it.
      await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> c.faults().dropped() >= 30);

      // Then slow links instead of lossy ones (one fault per link: this replaces the loss).
      c.faults().delay(Duration.ofMillis(20), Duration.ofMillis(30), c.members());
      for (int k = 0; k < 10; k++) {
        String ip = "127.0.10." + (100 + k);
        assertThat(c.http(k % 3).post(NS + "/instance", PartitionConvergenceTest.ephemeral("lossy", ip)).status()).isEqualTo(200);
        accepted.add(ip + ":80");
      }
      String slowCp = "127.0.11.100";
      assertThat(c.http(1).post(NS + "/instance", RaftPartitionTest.persistent("lossy-cp", slowCp)).status())
          .as("a CP write over slow links").isEqualTo(200);
      acknowledged.add(slowCp + ":80");
      accepted.sort(String::compareTo);

      c.faults().heal();
      Duration took = PartitionConvergenceTest.awaitConverged(c, "lossy", accepted, PartitionConvergenceTest.CONVERGENCE);
      System.out.printf("lossy links: convergence after heal %d ms, calls dropped %d, CP writes acknowledged %d of 6%n",
          took.toMillis(), c.faults().dropped(), acknowledged.size());
      await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
        List<String> first = c.hosts(0, "lossy-cp");
        assertThat(first).containsAll(acknowledged);
        for (int i = 1; i < c.size(); i++) {
          assertThat(c.hosts(i, "lossy-cp")).as("node %d\n%s", i, c.describe()).isEqualTo(first);
        }
      });
    }
  }
}
