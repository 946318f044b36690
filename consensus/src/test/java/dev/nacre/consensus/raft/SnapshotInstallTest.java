package dev.nacre.consensus.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SnapshotInstallTest {
  private static final int THRESHOLD = 50;
  private static final int WRITES = 300;

  @TempDir Path dir;

  @ParameterizedTest(name = "follower folder wiped: {0}")
  @ValueSource(booleans = {false, true})
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void laggingFollowerCatchesUpThroughTheLeadersSnapshot(boolean wipeFollower) throws Exception {
    try (TestCluster cluster = TestCluster.started(dir, 3,
        b -> b.snapshotThreshold(THRESHOLD).logSegmentSizeBytes(1024))) {
      int leader = cluster.awaitLeader(Duration.ofSeconds(15));
      cluster.log(leader).submit(KvStateMachine.put("early", "e")).join();
      int lagging = cluster.anyFollower(leader);
      await().atMost(Duration.ofSeconds(5)).until(() -> cluster.machine(lagging).get("early").isPresent());
      long laggingLast = cluster.log(lagging).status().appliedIndex();
      cluster.stop(lagging);
      if (wipeFollower) {
        cluster.wipe(lagging);
      }

      for (int i = 0; i < WRITES; i++) {
        cluster.log(leader).submit(KvStateMachine.put("k" + i, "v" + i)).join();
      }
      // The leader snapshotted and purged past what the lagging member holds: only a snapshot helps.
      await().atMost(Duration.ofSeconds(20))
          .until(() -> cluster.log(leader).firstLogIndex() > laggingLast + 1);
      // What an operator sees of it (nacre_raft_snapshot_index / _age_seconds).
      var snapshot = cluster.log(leader).admin().latestSnapshot().orElseThrow();
      assertThat(snapshot.index()).isGreaterThanOrEqualTo(THRESHOLD).isLessThanOrEqualTo(cluster.log(leader).status().appliedIndex());
      assertThat(snapshot.ageMillis()).isBetween(0L, 60_000L);

      cluster.start(lagging);
      // Well under the 24 s a leader's sender once stayed blocked on a snapshot it had begun
      // sending while the member was down (8 unanswered chunks x the 3 s request timeout).
      await().atMost(Duration.ofSeconds(12))
          .until(() -> cluster.machine(lagging).get("k" + (WRITES - 1)).isPresent());

      assertThat(cluster.machine(lagging).installs()).as("snapshot installs").isGreaterThanOrEqualTo(1);
      assertThat(cluster.machine(lagging).size()).isEqualTo(WRITES + 1);
      assertThat(cluster.machine(lagging).get("early")).contains("e");
      assertThat(cluster.machine(lagging).get("k0")).contains("v0");
      // And it keeps following after the install.
      cluster.log(lagging).submit(KvStateMachine.put("after", "a")).join();
      assertThat(cluster.machine(lagging).get("after")).contains("a");
    }
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void writesAreAppliedWhileASnapshotIsWritten() throws Exception {
    try (TestCluster cluster = TestCluster.started(dir, 1,
        b -> b.snapshotThreshold(THRESHOLD).logSegmentSizeBytes(1024))) {
      cluster.log(0).awaitLeader(Duration.ofSeconds(10));
      cluster.machine(0).holdSnapshots();
      // Past the threshold Ratis asks for a snapshot, which then waits at the gate: the writes
      // after it must still be applied (they waited for the whole checkpoint before).
      for (int i = 0; i < 3 * THRESHOLD; i++) {
        cluster.log(0).submit(KvStateMachine.put("k" + i, "v" + i)).get(5, TimeUnit.SECONDS);
      }
      // One snapshot being written (at the gate by now, or about to be), not one per entry.
      await().atMost(Duration.ofSeconds(5)).until(() -> cluster.machine(0).snapshotsHeld() == 1);
      assertThat(cluster.log(0).admin().latestSnapshot()).as("none complete yet").isEmpty();
      assertThat(cluster.log(0).firstLogIndex()).as("nothing purged without a snapshot").isLessThanOrEqualTo(1);

      cluster.machine(0).releaseSnapshots();
      await().atMost(Duration.ofSeconds(10)).until(() -> cluster.log(0).admin().latestSnapshot().isPresent());
      // Named after the entry applied when Ratis asked (index 49 is the 50th), or a later one.
      assertThat(cluster.log(0).admin().latestSnapshot().orElseThrow().index()).isGreaterThanOrEqualTo(THRESHOLD - 1);
      // Ratis hears of it when it next asks, after an entry, and purges its log up to it.
      cluster.log(0).submit(KvStateMachine.put("after", "a")).join();
      await().atMost(Duration.ofSeconds(10)).until(() -> cluster.log(0).firstLogIndex() > 1);

      cluster.stop(0);
      cluster.start(0);
      cluster.log(0).awaitLeader(Duration.ofSeconds(10));
      assertThat(cluster.machine(0).installs()).isZero();
      assertThat(cluster.machine(0).size()).isEqualTo(3 * THRESHOLD + 1);
      assertThat(cluster.machine(0).get("k0")).contains("v0");
    }
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void leaderRestartLoadsItsSnapshotAndSkipsWhatTheStoreHolds() {
    try (TestCluster cluster = TestCluster.started(dir, 1,
        b -> b.snapshotThreshold(THRESHOLD).logSegmentSizeBytes(1024))) {
      cluster.log(0).awaitLeader(Duration.ofSeconds(10));
      for (int i = 0; i < 2 * THRESHOLD; i++) {
        cluster.log(0).submit(KvStateMachine.put("k" + i, "v" + i)).join();
      }
      await().atMost(Duration.ofSeconds(10)).until(() -> cluster.log(0).firstLogIndex() > 1);
      cluster.stop(0);
      cluster.start(0);
      cluster.log(0).awaitLeader(Duration.ofSeconds(10));
      cluster.log(0).submit(KvStateMachine.put("new", "n")).join();
      assertThat(cluster.machine(0).applies()).isEqualTo(1);
      assertThat(cluster.machine(0).installs()).isZero();
      assertThat(cluster.machine(0).size()).isEqualTo(2 * THRESHOLD + 1);
    }
  }
}
