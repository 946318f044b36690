package dev.nacre.consensus.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class ThreePeerReplicatedLogTest {
  private static final Logger log = LoggerFactory.getLogger(ThreePeerReplicatedLogTest.class);
  private static final Duration ELECTION = Duration.ofSeconds(15);

  @TempDir Path dir;

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void submitOnFollowerIsAppliedEverywhereAndWritesGoOnAfterLeaderLoss() {
    try (TestCluster cluster = TestCluster.started(dir, 3, b -> b)) {
      int leader = cluster.awaitLeader(ELECTION);
      int follower = cluster.anyFollower(leader);

      cluster.machine(follower).slowDown(200); // the leader's reply comes long before this member applies
      cluster.log(follower).submit(KvStateMachine.put("a", "1")).join();
      // Acknowledged means applied on the member that answered, without waiting.
      assertThat(cluster.machine(follower).get("a")).contains("1");
      cluster.machine(follower).slowDown(0);
      for (int i = 0; i < 3; i++) {
        int member = i;
        await().atMost(Duration.ofSeconds(5)).until(() -> cluster.machine(member).get("a").isPresent());
      }

      long killedAt = System.nanoTime();
      cluster.stop(leader);
      int survivor = cluster.anyFollower(leader);
      long writtenAt = writeUntilSuccess(cluster, survivor, KvStateMachine.put("b", "2"), Duration.ofSeconds(20));
      long failoverMs = (writtenAt - killedAt) / 1_000_000;
      log.info("MEASURED leader kill -> next successful write: {} ms", failoverMs);
      System.out.println("MEASURED leader kill -> next successful write: " + failoverMs + " ms");

      assertThat(failoverMs).as("a new leader takes writes well within the request timeout").isLessThan(3000);
      assertThat(cluster.machine(survivor).get("b")).contains("2");
      int newLeader = cluster.awaitLeader(ELECTION);
      assertThat(newLeader).isNotEqualTo(leader);
      cluster.log(newLeader).submit(KvStateMachine.put("c", "3")).join();
      assertThat(cluster.machine(newLeader).get("c")).contains("3");
    }
  }

  /** Issue 12: a member whose state machine stops applying says for how long in its status. */
  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void aMemberWhoseApplyStallsSaysSoInItsStatus() {
    try (TestCluster cluster = TestCluster.started(dir, 3, b -> b)) {
      int leader = cluster.awaitLeader(ELECTION);
      int follower = cluster.anyFollower(leader);
      cluster.log(leader).submit(KvStateMachine.put("warm", "0")).join();
      long warm = cluster.log(leader).status().appliedIndex();
      // The follower learns of the commit a moment after the leader answers (CI saw it 14 ms
      // behind): once it has applied the entry, it reports no stall.
      await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10)).untilAsserted(() -> {
        RaftStatus s = cluster.log(follower).status();
        assertThat(s.appliedIndex()).isGreaterThanOrEqualTo(warm);
        assertThat(s.applyStalledMillis()).isZero();
      });

      cluster.machine(follower).slowDown(4_000); // its apply thread now hangs in the next entry
      cluster.log(leader).submit(KvStateMachine.put("stuck", "1")).join();
      await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
        RaftStatus s = cluster.log(follower).status();
        assertThat(s.commitIndex()).isGreaterThan(s.appliedIndex());
        assertThat(s.applyStalledMillis()).isGreaterThanOrEqualTo(1_000);
      });
      assertThat(cluster.log(leader).status().applyStalledMillis()).as("the leader keeps up").isZero();
      cluster.machine(follower).slowDown(0);
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
          assertThat(cluster.log(follower).status().applyStalledMillis()).isZero());
    }
  }

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void concurrentWritesShareRaftEntriesAndEachGetsItsOwnOutcome() {
    try (TestCluster cluster = TestCluster.started(dir, 3, b -> b)) {
      int leader = cluster.awaitLeader(ELECTION);
      int follower = cluster.anyFollower(leader);
      cluster.log(follower).submit(KvStateMachine.put("warm", "0")).join();
      long before = cluster.log(follower).status().commitIndex();

      int writes = 200;
      List<CompletableFuture<byte[]>> puts = new ArrayList<>();
      for (int i = 0; i < writes; i++) {
        puts.add(cluster.log(follower).submit(KvStateMachine.put("g" + i, "v" + i)));
      }
      // Two creates of one key in the same burst: whichever applies second is refused, alone.
      CompletableFuture<byte[]> first = cluster.log(follower).submit(KvStateMachine.create("once", "1"));
      CompletableFuture<byte[]> second = cluster.log(follower).submit(KvStateMachine.create("once", "2"));
      puts.forEach(CompletableFuture::join);
      assertThat(first.join()).isEmpty();
      assertThatThrownBy(second::join).hasCauseInstanceOf(OperationRejectedException.class);

      long entries = cluster.log(follower).status().commitIndex() - before;
      log.info("MEASURED {} concurrent writes took {} Raft entries", writes + 2, entries);
      assertThat(entries).as("concurrent writes share entries (group commit)").isLessThan(writes / 10);
      for (int member = 0; member < 3; member++) {
        int m = member;
        await().atMost(Duration.ofSeconds(10)).until(() -> cluster.machine(m).get("g" + (writes - 1)).isPresent());
        assertThat(cluster.machine(m).size()).isEqualTo(writes + 2);
        assertThat(cluster.machine(m).get("once")).contains("1");
      }
    }
  }

  /**
   * Issue 9: a member that does not lead hands its writes to the leader, whose next entry carries
   * them with its own. While the leader's apply is held, its one entry in flight cannot finish,
   * so everything written meanwhile on any member must wait in the leader's queue and then leave
   * as one entry: two entries in all. (With an entry stream per member it took six.)
   */
  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void writesOnEveryMemberShareTheLeadersEntries() {
    try (TestCluster cluster = TestCluster.started(dir, 3, b -> b)) {
      int leader = cluster.awaitLeader(ELECTION);
      for (int m = 0; m < 3; m++) {
        cluster.log(m).submit(KvStateMachine.put("warm" + m, "0")).join();
      }
      long before = cluster.log(leader).status().commitIndex();

      cluster.machine(leader).holdApplies();
      CompletableFuture<byte[]> first = cluster.log(leader).submit(KvStateMachine.put("first", "1"));
      await().atMost(Duration.ofSeconds(10)).until(() -> cluster.log(leader).status().commitIndex() > before);
      List<CompletableFuture<byte[]>> writes = new ArrayList<>();
      for (int m = 0; m < 3; m++) {
        for (int i = 0; i < 4; i++) {
          writes.add(cluster.log(m).submit(KvStateMachine.put("k" + m + "-" + i, "v")));
        }
      }
      await().atMost(Duration.ofSeconds(10)).until(() -> cluster.log(leader).queuedOperations() == writes.size());
      cluster.machine(leader).releaseApplies();
      first.join();
      writes.forEach(CompletableFuture::join);

      assertThat(cluster.log(leader).status().commitIndex() - before).isEqualTo(2);
      for (int m = 0; m < 3; m++) {
        assertThat(cluster.machine(m).get("k" + m + "-3")).as("member %d reads its own write", m).contains("v");
      }
    }
  }

  /**
   * With election timeouts of 5-10 s, only an early election can give the survivors a leader
   * within 2 s of the leader's stop: the member told that its leader is gone stands at once.
   */
  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void aFollowerToldItsLeaderIsGoneStandsForElectionAtOnce() {
    try (TestCluster cluster = startedWithSlowElections()) {
      int leader = cluster.awaitLeader(ELECTION);
      int follower = cluster.anyFollower(leader);
      cluster.log(follower).submit(KvStateMachine.put("a", "1")).join();
      String leaderId = cluster.log(follower).status().leaderId();
      assertThat(cluster.log(follower).standForElectionIfLeaderGone("someone-else")).isFalse();

      cluster.stop(leader);
      long stoppedAt = System.nanoTime();
      assertThat(cluster.log(follower).standForElectionIfLeaderGone(leaderId)).isTrue();
      cluster.log(follower).submit(KvStateMachine.put("b", "2")).orTimeout(10, TimeUnit.SECONDS).join();
      long writtenMs = (System.nanoTime() - stoppedAt) / 1_000_000;
      log.info("MEASURED leader stop -> early election -> first write: {} ms", writtenMs);
      assertThat(writtenMs).as("first write after an early election, ms").isLessThan(2000);
      assertThat(cluster.awaitLeader(ELECTION)).isEqualTo(follower);
      assertThat(cluster.log(follower).standForElectionIfLeaderGone(leaderId)).as("a leader does not stand").isFalse();
    }
  }

  /**
   * A write forwarded to a leader that is gone is still on its way, through Ratis' client, when
   * its own member wins the election: the member commits it itself at once, and the client's
   * copy, answered later from the same result, does not apply it a second time.
   */
  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void aForwardInFlightWhenItsMemberBecomesLeaderIsAnsweredThereAndAppliedOnce() {
    try (TestCluster cluster = startedWithSlowElections()) {
      int leader = cluster.awaitLeader(ELECTION);
      int follower = cluster.anyFollower(leader);
      cluster.log(follower).submit(KvStateMachine.put("warm", "0")).join();
      String leaderId = cluster.log(follower).status().leaderId();

      cluster.stop(leader);
      byte[] write = KvStateMachine.put("x", "1");
      CompletableFuture<byte[]> written = cluster.log(follower).submit(write);
      await().atMost(Duration.ofSeconds(5)).until(() -> cluster.log(follower).forwardsInFlight() == 1);
      long stoodAt = System.nanoTime();
      assertThat(cluster.log(follower).standForElectionIfLeaderGone(leaderId)).isTrue();
      written.orTimeout(10, TimeUnit.SECONDS).join();
      log.info("MEASURED early election -> forward in flight answered: {} ms", (System.nanoTime() - stoodAt) / 1_000_000);

      assertThat(cluster.machine(follower).get("x")).contains("1");
      await().atMost(Duration.ofSeconds(10)).until(() -> cluster.log(follower).forwardsInFlight() == 0);
      int other = 3 - leader - follower;
      await().atMost(Duration.ofSeconds(5)).until(() -> cluster.machine(other).appliesOf(write) > 0);
      cluster.log(follower).submit(KvStateMachine.put("after", "1")).join(); // the client's copy is in the log by now
      await().atMost(Duration.ofSeconds(5)).until(() -> cluster.machine(other).get("after").isPresent());
      assertThat(cluster.machine(follower).appliesOf(write)).as("applies on the new leader").isEqualTo(1);
      assertThat(cluster.machine(other).appliesOf(write)).as("applies on the other survivor").isEqualTo(1);
    }
  }

  /**
   * A follower applies a write once it learns the commit index, which Ratis would send only with
   * the next heartbeat (half the minimum election timeout: 1 s here). A lone write on a follower
   * must not wait for it.
   */
  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void aLoneWriteOnAFollowerDoesNotWaitForTheNextHeartbeat() {
    Duration heartbeat = Duration.ofSeconds(1);
    try (TestCluster cluster = TestCluster.started(dir, 3,
        b -> b.electionTimeout(heartbeat.multipliedBy(2), heartbeat.multipliedBy(4)).requestTimeout(heartbeat.multipliedBy(8)))) {
      int leader = cluster.awaitLeader(ELECTION);
      int follower = cluster.anyFollower(leader);
      cluster.log(follower).submit(KvStateMachine.put("warm", "0")).join();
      List<Long> millis = new ArrayList<>();
      for (int i = 0; i < 9; i++) {
        long start = System.nanoTime();
        cluster.log(follower).submit(KvStateMachine.put("w" + i, "v" + i)).join();
        millis.add((System.nanoTime() - start) / 1_000_000);
        assertThat(cluster.machine(follower).get("w" + i)).contains("v" + i);
      }
      millis.sort(null);
      log.info("MEASURED lone writes on a follower, sorted ms: {}", millis);
      assertThat(millis.get(millis.size() / 2)).as("median of lone follower writes, ms")
          .isLessThan(heartbeat.toMillis() / 4);
    }
  }

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void readBarrierOnFollowerSeesWritesCommittedThroughTheLeader() {
    try (TestCluster cluster = TestCluster.started(dir, 3, b -> b)) {
      int leader = cluster.awaitLeader(ELECTION);
      int follower = cluster.anyFollower(leader);
      cluster.machine(follower).slowDown(30); // without the barrier, the follower would lag visibly
      for (int i = 0; i < 30; i++) {
        cluster.log(leader).submit(KvStateMachine.put("r" + i, "v" + i)).join();
        cluster.log(follower).readBarrier().join();
        assertThat(cluster.machine(follower).get("r" + i)).as("follower after barrier").contains("v" + i);
      }
    }
  }

  @ParameterizedTest(name = "survivor was the leader: {0}")
  @ValueSource(booleans = {false, true})
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void minorityFailsWritesAndReadsWithinTheRequestTimeout(boolean survivorWasLeader) {
    try (TestCluster cluster = TestCluster.started(dir, 3, b -> b)) {
      int survivor = cluster.leaveOneMember(survivorWasLeader, ELECTION);
      long bound = cluster.log(survivor).config().requestTimeout().toMillis() + 1500;

      long start = System.nanoTime();
      assertThatThrownBy(() -> cluster.log(survivor).submit(KvStateMachine.put("after", "y")).join())
          .isInstanceOf(CompletionException.class)
          .cause().isInstanceOf(ConsensusUnavailableException.class)
          .hasMessageContaining("no quorum").hasMessageContaining("2 of 3 members must be up");
      long writeMs = (System.nanoTime() - start) / 1_000_000;

      start = System.nanoTime();
      assertThatThrownBy(() -> cluster.log(survivor).readBarrier().join())
          .isInstanceOf(CompletionException.class)
          .cause().isInstanceOf(ConsensusUnavailableException.class)
          .satisfies(e -> log.info("read barrier without quorum failed with: {}", e.getMessage()));
      long readMs = (System.nanoTime() - start) / 1_000_000;

      log.info("MEASURED no-quorum failure (survivor was leader: {}): write {} ms, read barrier {} ms",
          survivorWasLeader, writeMs, readMs);
      System.out.println("MEASURED no-quorum failure (survivor was leader: " + survivorWasLeader + "): write "
          + writeMs + " ms, read barrier " + readMs + " ms");
      assertThat(writeMs).isLessThan(bound);
      assertThat(readMs).isLessThan(bound);
      assertThat(cluster.machine(survivor).get("after")).isEmpty();
    }
  }

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void closeFailsPendingCallsAtOnceAndLaterCallsImmediately() {
    try (TestCluster cluster = TestCluster.started(dir, 3, b -> b.requestTimeout(Duration.ofSeconds(20)))) {
      int leader = cluster.awaitLeader(ELECTION);
      int survivor = cluster.anyFollower(leader);
      for (int i = 0; i < 3; i++) {
        if (i != survivor) {
          cluster.stop(i);
        }
      }
      var pending = cluster.log(survivor).submit(KvStateMachine.put("never", "n"));
      RatisReplicatedLog closing = cluster.log(survivor);
      long start = System.nanoTime();
      cluster.stop(survivor);
      assertThatThrownBy(pending::join).cause().isInstanceOf(ConsensusUnavailableException.class);
      assertThat((System.nanoTime() - start) / 1_000_000).as("ms to fail a pending call on close").isLessThan(10_000);
      assertThatThrownBy(() -> closing.submit(KvStateMachine.put("x", "y")).join())
          .cause().isInstanceOf(ConsensusUnavailableException.class).hasMessageContaining("stopped");
      assertThatThrownBy(() -> closing.readBarrier().join())
          .cause().isInstanceOf(ConsensusUnavailableException.class);
    }
  }

  /** Retries a write (each attempt bounded by the request timeout) until one succeeds; returns when. */
  static long writeUntilSuccess(TestCluster cluster, int member, byte[] op, Duration timeout) {
    return cluster.untilSuccess(member, timeout, log -> log.submit(op));
  }

  /** The operator's two Raft commands (issue 12 §3): move leadership to a named member, snapshot now. */
  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void leadershipMovesToTheNamedMemberAndASnapshotIsWrittenOnRequest() {
    try (TestCluster cluster = TestCluster.started(dir, 3, b -> b)) {
      int leader = cluster.awaitLeader(ELECTION);
      int follower = cluster.anyFollower(leader);
      cluster.log(follower).submit(KvStateMachine.put("before", "transfer")).join();

      String target = cluster.log(follower).config().selfId();
      cluster.log(follower).admin().transferLeadership(target); // asked through any member
      assertThat(cluster.awaitLeader(ELECTION)).as("the named member leads").isEqualTo(follower);
      assertThatThrownBy(() -> cluster.log(leader).admin().transferLeadership("not-a-member"))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a member");

      for (int i = 0; i < 5; i++) {
        cluster.log(leader).submit(KvStateMachine.put("k" + i, "v" + i)).join();
      }
      long applied = cluster.log(leader).status().appliedIndex();
      assertThat(cluster.log(leader).admin().latestSnapshot()).as("below the automatic threshold: none yet").isEmpty();
      long index = cluster.log(leader).admin().takeSnapshot();
      assertThat(index).isGreaterThanOrEqualTo(applied);
      assertThat(cluster.log(leader).admin().latestSnapshot().orElseThrow().index()).isEqualTo(index);
    }
  }

  /** Three members whose own election timeouts (5-10 s) never end a test's early election first. */
  private TestCluster startedWithSlowElections() {
    Duration timeoutMin = Duration.ofSeconds(5);
    return TestCluster.started(dir, 3,
        b -> b.electionTimeout(timeoutMin, timeoutMin.multipliedBy(2)).requestTimeout(timeoutMin.multipliedBy(3)));
  }
}
