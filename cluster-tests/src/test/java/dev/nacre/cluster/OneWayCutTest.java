package dev.nacre.cluster;

import static dev.nacre.cluster.LocalCluster.NS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nacre.node.cluster.MemberState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A one-way cut carries nothing from {@code from} to {@code to} and leaves the other direction
 * alone: checked on the peer protocol (pings) and on Raft (appends vs. client writes).
 */
@Timeout(180)
class OneWayCutTest {
  @TempDir Path dir;

  @Test
  void pingsAreCutInOneDirectionOnly() {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of())) {
      c.faults().cutOneWay(c.address(0), c.address(1));
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() ->
          c.node(0).cluster().orElseThrow().members().state(c.address(1)) == MemberState.DOWN);
      // Node 1's pings still reach node 0 (the answers come back over the call node 1 made).
      await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(20)).until(() ->
          c.node(1).cluster().orElseThrow().members().state(c.address(0)) == MemberState.UP
              && c.node(0).cluster().orElseThrow().members().state(c.address(2)) == MemberState.UP);
      c.faults().heal(c.address(0), c.address(1));
      c.awaitSettled();
    }
  }

  @Test
  void aFollowerCutFromTheLeaderStopsApplyingWhileItsWritesStillReachTheLeader() {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of())) {
      RaftPartitionTest.awaitLeader(c);
      int leader = c.leader();
      int follower = (leader + 1) % 3;
      assertThat(c.http(leader).post(NS + "/instance", RaftPartitionTest.persistent("one-way", "127.0.9.1")).status()).isEqualTo(200);
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(c.hosts(follower, "one-way")).hasSize(1));

      c.faults().cutOneWay(c.address(leader), c.address(follower));
      long dropsBefore = c.faults().dropped();
      assertThat(c.http(leader).post(NS + "/instance", RaftPartitionTest.persistent("one-way", "127.0.9.2")).status()).isEqualTo(200);
      // The follower's write travels follower -> leader and commits with the third member; the
      // follower itself cannot apply it, so it answers 503 once the CP timeout passes.
      var viaFollower = c.http(follower).post(NS + "/instance", RaftPartitionTest.persistent("one-way", "127.0.9.3"));
      assertThat(viaFollower.status()).as(viaFollower.body()).isEqualTo(503);
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
          assertThat(c.hosts(leader, "one-way")).containsExactly("127.0.9.1:80", "127.0.9.2:80", "127.0.9.3:80"));
      assertThat(c.hosts(follower, "one-way")).containsExactly("127.0.9.1:80");
      assertThat(c.faults().dropped()).isGreaterThan(dropsBefore);

      c.faults().heal(c.address(leader), c.address(follower));
      await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).untilAsserted(() ->
          assertThat(c.hosts(follower, "one-way")).containsExactly("127.0.9.1:80", "127.0.9.2:80", "127.0.9.3:80"));
    }
  }

  /**
   * The leader alone holds the newest entry among the two members left, so only it can win an
   * election; after stepping down for lack of answers it must stand again within an election
   * timeout or so, not after Ratis' default 10 s wait (which left the fault suite's group without
   * a leader for 10 s).
   */
  @Test
  void aLeaderThatSteppedDownHoldingTheNewestEntryStandsAgainAtOnce() {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of())) {
      RaftPartitionTest.awaitLeader(c);
      int leader = c.leader();
      int follower = (leader + 1) % 3;
      assertThat(c.http(leader).post(NS + "/instance", RaftPartitionTest.persistent("step-down", "127.0.9.1")).status()).isEqualTo(200);
      c.stopNode((leader + 2) % 3);

      c.faults().cutOneWay(c.address(leader), c.address(follower));
      // Appended on the leader only: it cannot commit, and the leader steps down meanwhile.
      var uncommitted = c.http(leader).post(NS + "/instance", RaftPartitionTest.persistent("step-down", "127.0.9.2"));
      assertThat(uncommitted.status()).as(uncommitted.body()).isEqualTo(503);
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).alias("the cut leader steps down")
          .until(() -> !c.node(leader).raftStatus().role().equals("LEADER"));
      c.faults().heal(c.address(leader), c.address(follower));
      long healed = System.nanoTime();

      await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20)).alias("a leader again after the heal")
          .until(() -> c.leader() >= 0);
      assertThat(c.leader()).as("only the member with the newest entry can win").isEqualTo(leader);
      assertThat(c.http(follower).post(NS + "/instance", RaftPartitionTest.persistent("step-down", "127.0.9.3")).status())
          .isEqualTo(200);
      System.out.printf("heal to acknowledged CP write: %d ms%n", Duration.ofNanos(System.nanoTime() - healed).toMillis());
    }
  }
}
