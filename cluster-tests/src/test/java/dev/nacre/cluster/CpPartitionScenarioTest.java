package dev.nacre.cluster;

import dev.nacre.cluster.check.InstanceKey;
import dev.nacre.cluster.check.Mode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * CP scenarios about partitions of the links between nodes (Raft and peer gRPC; client traffic
 * still reaches every node): a minority cut off, a 2/3 split of 5 nodes, an isolated old leader
 * that keeps receiving writes, a one-way cut. Clients on both sides. Checks: the minority
 * acknowledges no CP write and refuses within {@link Scenario#MINORITY_REFUSAL}, the majority takes
 * writes within {@link Scenario#CP_RECOVERY}, linearizability, and after the heal every node
 * catches up with every acknowledged write. docs/FAULTS.md.
 */
@Tag("scenario")
@Timeout(180)
class CpPartitionScenarioTest {
  @TempDir Path dir;

  /** A follower minority ({@code (n-1)/2} followers) is cut off, then healed. */
  @Test
  @Tag("quick")
  void minorityPartition() {
    try (Scenario s = Scenario.builder("minority-partition").start(dir)) {
      int leader = s.awaitLeader(Duration.ofSeconds(20));
      List<Integer> followers = s.allBut(List.of(leader));
      List<Integer> minority = followers.subList(0, (s.size() - 1) / 2);
      partitionAndHeal(s, minority, s.keys("cp-minority", 40, 6));
    }
  }

  /** 5 nodes split 2 | 3 with the leader on the 2 side: the 3 side elects and goes on. */
  @Test
  void splitTwoThreeOfFive() {
    try (Scenario s = Scenario.builder("split-2-3").fixedNodes(5).start(dir)) {
      int leader = s.awaitLeader(Duration.ofSeconds(20));
      List<Integer> minority = List.of(leader, s.allBut(List.of(leader)).get(0));
      partitionAndHeal(s, minority, s.keys("cp-split", 41, 6));
    }
  }

  /**
   * Split brain: the leader is isolated while its clients keep writing to it and reading from it.
   * It must acknowledge nothing (every write it took fails or stays unknown and, if it never
   * committed, disappears), serve no stale linearizable read, and after the heal follow the new leader.
   */
  @Test
  @Tag("quick")
  @Tag("seeded")
  void isolatedOldLeaderKeepsReceivingWrites() {
    try (Scenario s = Scenario.builder("isolated-old-leader").start(dir)) {
      int leader = s.awaitLeader(Duration.ofSeconds(20));
      partitionAndHeal(s, List.of(leader), s.keys("cp-split-brain", 42, 6));
    }
  }

  /**
   * The leader's calls to one follower are dropped while that follower's calls to the others get
   * through (it stops hearing heartbeats and campaigns). The nodes other than that follower keep
   * taking CP writes; after the heal the follower catches up.
   */
  @Test
  void oneWayPartition() {
    try (Scenario s = Scenario.builder("one-way-partition").start(dir)) {
      int leader = s.awaitLeader(Duration.ofSeconds(20));
      int deaf = s.allBut(List.of(leader)).get(0);
      List<Integer> rest = s.allBut(List.of(deaf));
      List<InstanceKey> keys = s.keys("cp-one-way", 43, 6);
      Workload w = s.start(Workload.Spec.cp("all", 2 * s.size(), s.all(), keys));
      Workload onRest = s.start(Workload.Spec.cp("rest", rest.size(), rest, keys));
      s.awaitAcknowledged(onRest, 20, Duration.ofSeconds(20));

      s.cluster().faults().cutOneWay(s.cluster().address(leader), s.cluster().address(deaf));
      s.disruption("calls " + leader + " -> " + deaf + " cut", rest);
      s.runFor(Duration.ofSeconds(5));
      s.awaitAcknowledged(onRest, 20, Duration.ofSeconds(20));
      s.note("during the cut: leader %d, terms %s", s.cluster().leader(), terms(s));

      s.cluster().faults().heal();
      s.disruption("heal: node " + deaf + " catches up", List.of(deaf));
      s.awaitAcknowledged(w, 20, Duration.ofSeconds(20));
      s.awaitLivenessEvidence(Scenario.CP_RECOVERY);
      w.stop();
      onRest.stop();

      s.finishCp();
    }
  }

  /**
   * Clients on both sides; cut {@code minority} off both ways; keep going until the majority has
   * acknowledged writes and the minority has refused some; heal; wait until the minority takes
   * writes again; check.
   */
  static void partitionAndHeal(Scenario s, List<Integer> minority, List<InstanceKey> keys) {
    List<Integer> majority = s.allBut(minority);
    Workload onMinority = s.start(Workload.Spec.cp("minority", 2 * minority.size(), minority, keys));
    Workload onMajority = s.start(Workload.Spec.cp("majority", 2 * majority.size(), majority, keys));
    s.awaitAcknowledged(onMajority, 20, Duration.ofSeconds(20));
    s.awaitAcknowledged(onMinority, 5, Duration.ofSeconds(20));

    s.cluster().partition(minority);
    long cut = s.disruption("nodes " + minority + " cut off", majority);
    s.awaitLeaderAmong(majority, Duration.ofSeconds(15));
    s.awaitAcknowledged(onMajority, 30, Duration.ofSeconds(20));
    // Long enough for writes sent to the minority after the cut to be refused (CP timeout).
    int wanted = 2 * onMinority.spec().processes();
    Polling.until(wanted + " CP writes sent to the minority after the cut answered", Duration.ofSeconds(40),
        () -> s.history().ops().stream().filter(o -> o.mode() == Mode.CP && o.kind().isWrite()
            && o.invokeNanos() >= cut && o.completeNanos() != Long.MAX_VALUE
            && s.cluster().addresses(minority).contains(o.node())).count() >= wanted, s::dump);
    s.note("during the partition (cut at +%.1fs, healing at +%.1fs): terms %s", (cut - s.startNanos()) / 1e9,
        s.elapsed().toMillis() / 1e3, terms(s));

    long heal = System.nanoTime();
    s.cluster().faults().heal();
    // Catching up is liveness too: the minority takes CP writes again within the same bound.
    s.disruption("heal: nodes " + minority + " catch up", minority);
    Duration back = s.awaitAcknowledged(onMinority, 5, Duration.ofSeconds(30));
    s.note("the minority's clients had 5 operations acknowledged %d ms after the heal", back.toMillis());
    s.awaitAcknowledged(onMajority, 10, Duration.ofSeconds(20));
    s.awaitLivenessEvidence(Scenario.CP_RECOVERY);
    onMinority.stop();
    onMajority.stop();

    s.checkLinearizable();
    s.checkMinorityRefuses(minority, cut, heal);
    s.checkDurable(s.all(), Duration.ofSeconds(30));
    s.checkLiveness(Scenario.CP_RECOVERY);
    s.finish();
  }

  private static List<String> terms(Scenario s) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < s.size(); i++) {
      var st = s.cluster().node(i).raftStatus();
      out.add(i + ":" + st.role() + "@" + st.term());
    }
    return out;
  }
}
