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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A member that was left alone (no quorum) must serve writes and read barriers again once the
 * others come back: a write that timed out while there was no quorum must not disable this
 * member's Raft client, and must be applied at most once if Ratis commits it later.
 */
class MinorityRecoveryTest {
  private static final Logger log = LoggerFactory.getLogger(MinorityRecoveryTest.class);
  private static final Duration ELECTION = Duration.ofSeconds(15);
  /** From restarting the stopped members until the survivor serves a write (each attempt is bounded too). */
  private static final Duration RECOVERY = Duration.ofSeconds(20);

  @TempDir Path dir;

  @ParameterizedTest(name = "survivor was the leader: {0}")
  @ValueSource(booleans = {false, true})
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void survivorServesWritesAndReadsAgainOnceTheStoppedMembersRestart(boolean survivorWasLeader) {
    try (TestCluster cluster = TestCluster.started(dir, 3, b -> b)) {
      int survivor = cluster.leaveOneMember(survivorWasLeader, ELECTION);
      long bound = cluster.log(survivor).config().requestTimeout().toMillis() + 1500;
      byte[] lost = KvStateMachine.put("lost", "l");
      assertNoQuorumWithin(bound, () -> cluster.log(survivor).submit(lost).join());
      assertNoQuorumWithin(bound, () -> cluster.log(survivor).readBarrier().join());
      // A second write in the same outage: the client must also survive repeated failures.
      assertNoQuorumWithin(bound, () -> cluster.log(survivor).submit(KvStateMachine.put("lost2", "l")).join());

      long restartedAt = System.nanoTime();
      for (int i = 0; i < 3; i++) {
        if (i != survivor) {
          cluster.start(i);
        }
      }
      long writtenAt = ThreePeerReplicatedLogTest.writeUntilSuccess(
          cluster, survivor, KvStateMachine.put("after", "y"), RECOVERY);
      long readAt = readUntilSuccess(cluster, survivor, RECOVERY);
      long writeMs = (writtenAt - restartedAt) / 1_000_000;
      long readMs = (readAt - restartedAt) / 1_000_000;
      log.info("MEASURED restart of 2 members (survivor was leader: {}) -> survivor write {} ms, read barrier {} ms",
          survivorWasLeader, writeMs, readMs);
      System.out.println("MEASURED restart of 2 members (survivor was leader: " + survivorWasLeader
          + ") -> survivor write " + writeMs + " ms, read barrier " + readMs + " ms");
      assertThat(cluster.machine(survivor).get("after")).contains("y");

      // Writes keep working, not just the first one after recovery.
      for (int i = 0; i < 5; i++) {
        cluster.log(survivor).submit(KvStateMachine.put("k" + i, "v" + i)).join();
      }
      cluster.log(survivor).readBarrier().join();
      // Whether Ratis committed the timed-out write depends on the election; never twice.
      assertThat(cluster.machine(survivor).appliesOf(lost)).isLessThanOrEqualTo(1);
    }
  }

  /**
   * The stopped members are the survivor's followers, so the survivor (leader) has the write that
   * timed out in its log. Only one follower restarts first: it lacks that entry and cannot win an
   * election without the survivor's vote, so the survivor leads again and commits the entry. It
   * must be applied once, and later writes must go through. The survivor steps down once it has
   * heard from no follower for an election timeout, and stopping a member takes about a second:
   * longer timeouts make sure it still leads when it appends the write.
   */
  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void writeThatTimedOutIsAppliedOnceWhenTheGroupRecovers() {
    try (TestCluster cluster = TestCluster.started(dir, 3, b -> b
        .electionTimeout(Duration.ofMillis(2500), Duration.ofMillis(4000)).requestTimeout(Duration.ofMillis(5000)))) {
      int survivor = cluster.awaitLeader(ELECTION);
      cluster.log(survivor).submit(KvStateMachine.put("before", "x")).join();
      int first = (survivor + 1) % 3;
      int second = (survivor + 2) % 3;
      cluster.stop(first);
      cluster.stop(second);
      long bound = cluster.log(survivor).config().requestTimeout().toMillis() + 1500;
      byte[] late = KvStateMachine.put("late", "z");
      assertNoQuorumWithin(bound, () -> cluster.log(survivor).submit(late).join());
      assertThat(cluster.machine(survivor).appliesOf(late)).isZero();

      cluster.start(first);
      await().atMost(RECOVERY).pollInterval(Duration.ofMillis(20))
          .until(() -> cluster.machine(survivor).appliesOf(late) == 1);
      ThreePeerReplicatedLogTest.writeUntilSuccess(cluster, survivor, KvStateMachine.put("after", "y"), RECOVERY);
      cluster.start(second);
      for (int i = 0; i < 5; i++) {
        cluster.log(survivor).submit(KvStateMachine.put("k" + i, "v" + i)).join();
      }
      for (int i = 0; i < 3; i++) {
        int member = i;
        readUntilSuccess(cluster, member, RECOVERY);
        await().atMost(RECOVERY).until(() -> cluster.machine(member).get("k4").isPresent());
        assertThat(cluster.machine(member).get("late")).contains("z");
      }
      assertThat(cluster.machine(survivor).appliesOf(late)).as("applies of the timed-out write").isEqualTo(1);
      assertThat(cluster.machine(first).appliesOf(late)).isLessThanOrEqualTo(1);
      assertThat(cluster.machine(second).appliesOf(late)).isLessThanOrEqualTo(1);
    }
  }

  private static void assertNoQuorumWithin(long boundMs, Runnable call) {
    long start = System.nanoTime();
    assertThatThrownBy(call::run)
        .isInstanceOf(CompletionException.class)
        .cause().isInstanceOf(ConsensusUnavailableException.class).hasMessageContaining("no quorum");
    assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(boundMs);
  }

  /** Retries a read barrier (each attempt bounded by the request timeout) until one passes; returns when. */
  static long readUntilSuccess(TestCluster cluster, int member, Duration timeout) {
    return cluster.untilSuccess(member, timeout, RatisReplicatedLog::readBarrier);
  }
}
