package dev.nacre.cluster;

import static dev.nacre.cluster.LocalCluster.NS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nacre.node.cluster.MemberState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Raft and the peer protocol through the link fault table: an isolated leader, then healed. */
@Timeout(180)
class RaftPartitionTest {
  @TempDir Path dir;

  static Map<String, String> persistent(String service, String ip) {
    return Map.of("serviceName", service, "ip", ip, "port", "80", "ephemeral", "false");
  }

  static void awaitLeader(LocalCluster c) {
    await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> c.leader() >= 0);
  }

  @Test
  void anIsolatedLeaderLosesLeadershipRefusesCpWritesAndCatchesUpAfterHeal() {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of())) {
      awaitLeader(c);
      int old = c.leader();
      assertThat(c.http(old).post(NS + "/instance", persistent("cp", "127.0.7.1")).status()).isEqualTo(200);
      List<Integer> majority = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        if (i != old) {
          majority.add(i);
        }
      }
      long oldTerm = c.node(old).raftStatus().term();
      long commitBefore = c.node(old).raftStatus().commitIndex();
      // Every member holds the write before the cut. A member with an empty Raft log can't help
      // elect anyone: Ratis ignores the vote of an empty log once the candidate has commits (it could
      // be a member whose disk was wiped). Right after a start on a slow machine the third member
      // may not have had the leader's first append yet, and the majority then waits for the heal.
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() ->
          majority.stream().allMatch(i -> c.node(i).raftStatus().appliedIndex() >= commitBefore));

      c.isolate(old);
      long cut = System.nanoTime();
      // The majority elects a new leader among itself: the old leader's heartbeats no longer arrive.
      await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(20)).untilAsserted(() ->
          assertThat(majority).as("a new leader among %s\n%s", majority, c.describe())
              .anyMatch(i -> c.node(i).raftStatus().role().equals("LEADER")));
      System.out.printf("isolated leader to new leader: %d ms%n", Duration.ofNanos(System.nanoTime() - cut).toMillis());

      // A CP write on the isolated node fails within the CP timeout (3 s) plus slack.
      long start = System.nanoTime();
      var refused = c.http(old).post(NS + "/instance", persistent("cp", "127.0.7.2"));
      long ms = Duration.ofNanos(System.nanoTime() - start).toMillis();
      assertThat(refused.status()).as("%s\n%s", refused.body(), c.describe()).isEqualTo(503);
      assertThat(ms).isLessThan(4_500);

      // The majority commits.
      int survivor = majority.get(0);
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).ignoreExceptions().until(() ->
          c.http(survivor).post(NS + "/instance", persistent("cp", "127.0.7.3")).status() == 200);
      // Nothing reached the isolated node: its commit index did not move past what it had, and its
      // own write did not commit anywhere.
      assertThat(c.node(old).raftStatus().commitIndex()).isLessThanOrEqualTo(commitBefore + 1);
      assertThat(c.hosts(survivor, "cp")).doesNotContain("127.0.7.2:80");
      assertThat(c.hosts(old, "cp")).doesNotContain("127.0.7.3:80");
      // The old leader steps down: its appends are not acknowledged by a majority.
      await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(20)).alias("the isolated leader steps down")
          .until(() -> !c.node(old).raftStatus().role().equals("LEADER"));
      // Pings are cut both ways too.
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
        for (int i : majority) {
          assertThat(c.node(i).cluster().orElseThrow().members().state(c.address(old))).isEqualTo(MemberState.DOWN);
          assertThat(c.node(old).cluster().orElseThrow().members().state(c.address(i))).isEqualTo(MemberState.DOWN);
        }
      });

      c.faults().heal();
      await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).untilAsserted(() ->
          assertThat(c.hosts(old, "cp")).contains("127.0.7.3:80"));
      assertThat(c.node(old).raftStatus().term()).isGreaterThan(oldTerm);
      await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).ignoreExceptions().until(() ->
          c.http(old).post(NS + "/instance", persistent("cp", "127.0.7.4")).status() == 200);
      for (int i = 0; i < 3; i++) {
        int n = i;
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
            assertThat(c.hosts(n, "cp")).containsExactly("127.0.7.1:80", "127.0.7.3:80", "127.0.7.4:80"));
      }
    }
  }

  @Test
  void aPausedLeaderIsReplacedAndRejoinsWhenThePauseEnds() {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of())) {
      awaitLeader(c);
      int paused = c.leader();
      int other = (paused + 1) % 3;
      c.pause(paused, Duration.ofSeconds(6));
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).ignoreExceptions().until(() ->
          c.http(other).post(NS + "/instance", persistent("paused", "127.0.7.20")).status() == 200);
      // In-process: over HTTP the paused node's answer would wait for the end of the pause.
      assertThat(c.hostsInProcess(paused, "paused")).isEmpty();
      // The pause ends by itself: held calls are delivered and the node catches up.
      await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).untilAsserted(() ->
          assertThat(c.hosts(paused, "paused")).containsExactly("127.0.7.20:80"));
      assertThat(c.faults().snapshot()).isEmpty();
      c.awaitSettled();
    }
  }
}
