package dev.nacre.cluster;

import dev.nacre.cluster.check.InstanceKey;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * CP scenarios about the Raft leader: the first election, the leader stopped (with and without a
 * write burst), the leader paused. Clients on every node register, update, deregister persistent
 * instances and read them linearizably. Every scenario checks linearizability, durability on every
 * node at the end, one leader per term, and CP liveness after the fault. docs/FAULTS.md.
 */
@Tag("scenario")
@Timeout(180)
class CpLeaderScenarioTest {
  @TempDir Path dir;

  /**
   * A cold start: every node of a cluster starts at the same time on an empty disk while clients
   * are already sending to every node. One leader is elected that every node names, and CP writes
   * are acknowledged soon after the nodes are up.
   */
  @Test
  void electionAtStart() {
    try (Scenario s = Scenario.builder("election-at-start").start(dir)) {
      // The harness's own first election does not count: wipe every node, then start them together.
      s.wipeAll();
      Workload w = s.start(Workload.Spec.cp("start", 2 * s.size(), s.all(), s.keys("cp-start", 30, 4)));
      long launch = System.nanoTime();
      s.restartTogether(s.all());
      s.disruption("cold start", s.all());
      long up = System.nanoTime();
      int leader = s.awaitLeader(Duration.ofSeconds(10));
      s.note("nodes up %d ms after launch; leader %d elected %d ms after that", (up - launch) / 1_000_000, leader,
          (System.nanoTime() - up) / 1_000_000);
      Duration agreed = Polling.until("every node names the same leader", Duration.ofSeconds(10), () -> {
        String id = s.cluster().node(leader).raftStatus().selfId();
        return s.all().stream().allMatch(i -> s.cluster().node(i).raftStatus().leaderId().equals(id));
      }, s::dump);
      s.expect("leader-known", true, "every node named leader " + leader + " within " + agreed.toMillis() + " ms");
      s.awaitAcknowledged(w, 40, Duration.ofSeconds(20));
      w.stop();

      s.finishCp();
    }
  }

  /** The leader stops; the others elect a leader and take CP writes; it restarts on its folder and catches up. */
  @Test
  @Tag("quick")
  @Tag("seeded")
  void leaderKill() {
    try (Scenario s = Scenario.builder("leader-kill").start(dir)) {
      int leader = s.awaitLeader(Duration.ofSeconds(20));
      List<InstanceKey> keys = s.keys("cp-leader-kill", 31, 6);
      Workload w = s.start(Workload.Spec.cp("kill", 2 * s.size(), s.all(), keys));
      s.awaitAcknowledged(w, 20, Duration.ofSeconds(20));

      // Timed from when the node is gone: while it closes it may still commit.
      s.kill(leader);
      s.disruption("leader " + leader + " stopped", s.allBut(List.of(leader)));
      s.awaitLeaderAmong(s.allBut(List.of(leader)), Duration.ofSeconds(15));
      s.awaitAcknowledged(w, 30, Duration.ofSeconds(20));

      s.restart(leader);
      s.awaitAcknowledged(w, 20, Duration.ofSeconds(20));
      w.stop();

      s.finishCp();
    }
  }

  /**
   * Many clients register fresh values as fast as they can (no pause) while the leader is
   * stopped: every acknowledged register must be there at the end; those in flight may or may not.
   */
  @Test
  @Tag("quick")
  void leaderKillDuringWriteBurst() {
    try (Scenario s = Scenario.builder("leader-kill-burst").start(dir)) {
      int leader = s.awaitLeader(Duration.ofSeconds(20));
      List<InstanceKey> keys = s.keys("cp-burst", 32, 40);
      Workload w = s.start(Workload.Spec.cp("burst", 3 * s.size(), s.all(), keys)
          .withStep(Workload.cpRegisters()).withPace(Duration.ZERO).withBounds(2_000, Duration.ofSeconds(60)));
      s.awaitAcknowledged(w, 60, Duration.ofSeconds(20));

      s.kill(leader);
      s.disruption("leader " + leader + " stopped mid-burst", s.allBut(List.of(leader)));
      s.awaitAcknowledged(w, 60, Duration.ofSeconds(20));
      s.restart(leader);
      s.awaitAcknowledged(w, 40, Duration.ofSeconds(20));
      w.stop();

      s.note("%d CP writes acknowledged", s.acknowledgedCpWrites());
      s.finishCp();
    }
  }

  /**
   * The leader stalls (LocalCluster.pause) for longer than an election; the others elect a new
   * leader and go on; when it wakes it must not acknowledge or serve anything stale, and it rejoins.
   */
  @Test
  @Tag("quick")
  void pausedLeaderWakesUp() {
    try (Scenario s = Scenario.builder("paused-leader").start(dir)) {
      int leader = s.awaitLeader(Duration.ofSeconds(20));
      List<Integer> others = s.allBut(List.of(leader));
      List<InstanceKey> keys = s.keys("cp-paused", 33, 6);
      Workload onLeader = s.start(Workload.Spec.cp("paused-node", 2, List.of(leader), keys));
      Workload onOthers = s.start(Workload.Spec.cp("others", 2 * others.size(), others, keys));
      s.awaitAcknowledged(onOthers, 20, Duration.ofSeconds(20));

      Duration pause = Duration.ofSeconds(4);
      long from = System.nanoTime();
      s.cluster().pause(leader, pause);
      s.disruption("leader " + leader + " paused for " + pause.toMillis() + " ms", others);
      s.outage(leader, from, from + pause.toNanos());
      s.awaitLeaderAmong(others, Duration.ofSeconds(15));
      s.awaitAcknowledged(onOthers, 30, Duration.ofSeconds(20));
      Polling.until("the pause ends", pause.plusSeconds(5), () -> s.cluster().faults().snapshot().isEmpty(), s::dump);
      s.awaitAcknowledged(onLeader, 10, Duration.ofSeconds(30));
      onLeader.stop();
      onOthers.stop();

      s.finishCp();
    }
  }
}
