package dev.nacre.consensus.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Groups whose members share a cluster secret behave as before; a member without it is shut out. */
class AuthenticatedClusterTest {
  static final String SECRET = "test-cluster-secret-0123456789";
  private static final String WRONG_SECRET = "not-the-cluster-secret-987654";
  private static final Duration ELECTION = Duration.ofSeconds(15);

  @TempDir Path dir;

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void groupWithTheSecretCommitsTakesFollowerWritesAndFailsOver() {
    try (TestCluster cluster = TestCluster.started(dir, 3, b -> b.clusterSecret(SECRET))) {
      int leader = cluster.awaitLeader(ELECTION);
      cluster.log(leader).submit(KvStateMachine.put("a", "1")).join();
      int follower = cluster.anyFollower(leader);
      cluster.log(follower).submit(KvStateMachine.put("b", "2")).join();
      cluster.log(follower).readBarrier().join();
      for (int i = 0; i < 3; i++) {
        int member = i;
        await().atMost(Duration.ofSeconds(5)).until(() -> cluster.machine(member).get("b").isPresent());
        assertThat(cluster.machine(member).get("a")).contains("1");
      }

      cluster.stop(leader);
      int survivor = cluster.anyFollower(leader);
      ThreePeerReplicatedLogTest.writeUntilSuccess(cluster, survivor, KvStateMachine.put("c", "3"),
          Duration.ofSeconds(20));
      int newLeader = cluster.awaitLeader(ELECTION);
      assertThat(newLeader).isNotEqualTo(leader);
      cluster.log(newLeader).submit(KvStateMachine.put("d", "4")).join();
      assertThat(cluster.machine(survivor).get("c")).contains("3");
    }
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void wipedFollowerOfAGroupWithTheSecretCatchesUpThroughASnapshot() throws Exception {
    int writes = 200;
    try (TestCluster cluster = TestCluster.started(dir, 3,
        b -> b.clusterSecret(SECRET).snapshotThreshold(50).logSegmentSizeBytes(1024))) {
      int leader = cluster.awaitLeader(ELECTION);
      cluster.log(leader).submit(KvStateMachine.put("early", "e")).join();
      int lagging = cluster.anyFollower(leader);
      await().atMost(Duration.ofSeconds(5)).until(() -> cluster.machine(lagging).get("early").isPresent());
      long laggingLast = cluster.log(lagging).status().appliedIndex();
      cluster.stop(lagging);
      cluster.wipe(lagging);
      for (int i = 0; i < writes; i++) {
        cluster.log(leader).submit(KvStateMachine.put("k" + i, "v" + i)).join();
      }
      // Purged past what the wiped member had: it can only catch up through InstallSnapshot.
      await().atMost(Duration.ofSeconds(20)).until(() -> cluster.log(leader).firstLogIndex() > laggingLast + 1);

      cluster.start(lagging);
      await().atMost(Duration.ofSeconds(30))
          .until(() -> cluster.machine(lagging).get("k" + (writes - 1)).isPresent());
      assertThat(cluster.machine(lagging).installs()).as("snapshot installs").isGreaterThanOrEqualTo(1);
      assertThat(cluster.machine(lagging).size()).isEqualTo(writes + 1);
    }
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void memberWithAnotherSecretCannotJoinVoteAppendOrSubmit() {
    try (TestCluster cluster = new TestCluster(dir, 3, b -> b.clusterSecret(SECRET))) {
      cluster.start(0);
      cluster.start(1);
      cluster.start(2, b -> b.clusterSecret(WRONG_SECRET));
      int leader = awaitLeaderAmong(cluster, 0, 1);
      for (int i = 0; i < 20; i++) {
        cluster.log(leader).submit(KvStateMachine.put("k" + i, "v" + i)).join();
      }
      int good = leader == 0 ? 1 : 0;
      await().atMost(Duration.ofSeconds(5)).until(() -> cluster.machine(good).get("k19").isPresent());

      // Nothing reached the stranger, and it never learnt of a leader.
      assertThat(cluster.machine(2).size()).isZero();
      assertThat(cluster.log(2).status().appliedIndex()).as("nothing applied").isLessThanOrEqualTo(0);
      assertThat(cluster.log(2).status().leaderId()).isEmpty();
      assertThatThrownBy(() -> cluster.log(2).submit(KvStateMachine.put("x", "stranger")).join())
          .isInstanceOf(CompletionException.class).cause().isInstanceOf(ConsensusUnavailableException.class);

      // Were the stranger able to vote and append, it would form a quorum with the remaining member.
      cluster.stop(good);
      assertThatThrownBy(() -> cluster.log(leader).submit(KvStateMachine.put("y", "no quorum")).join())
          .isInstanceOf(CompletionException.class).cause().isInstanceOf(ConsensusUnavailableException.class);
      assertThat(cluster.machine(leader).get("x")).isEmpty();
      assertThat(cluster.machine(leader).size()).isEqualTo(20);
      assertThat(cluster.machine(2).size()).isZero();
    }
  }

  /** Index of the member among {@code a} and {@code b} that both agree leads. */
  private static int awaitLeaderAmong(TestCluster cluster, int a, int b) {
    int[] found = {-1};
    await().atMost(ELECTION).pollInterval(Duration.ofMillis(20)).until(() -> {
      for (int[] pair : new int[][] {{a, b}, {b, a}}) {
        RaftStatus leader = cluster.log(pair[0]).status();
        if (leader.role().equals("LEADER") && cluster.log(pair[1]).status().leaderId().equals(leader.selfId())) {
          found[0] = pair[0];
          return true;
        }
      }
      return false;
    });
    return found[0];
  }
}
