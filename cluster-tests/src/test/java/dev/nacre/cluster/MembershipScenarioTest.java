package dev.nacre.cluster;

import dev.nacre.cluster.check.InstanceKey;
import dev.nacre.node.testkit.Http;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 §4 under the fault suite's checkers: a 3-member cluster grows to 5 and shrinks back to
 * 3 (the leader among the removed) while CP clients, AP clients and beating clients keep going.
 * Checks: linearizability, every acknowledged CP write on the remaining members, a CP write
 * acknowledged within the recovery bound after each change, one leader per term, AP convergence
 * with every beating instance kept, and a removed member that refuses to come back. docs/FAULTS.md.
 */
@Tag("scenario")
@Timeout(300)
class MembershipScenarioTest {
  @TempDir Path dir;

  @Test
  void growToFiveAndShrinkToThree() throws InterruptedException {
    try (Scenario s = Scenario.builder("membership-3-5-3").fixedNodes(3).spares(2).start(dir)) {
      s.awaitLeader(Duration.ofSeconds(20));
      List<Integer> first = List.of(0, 1, 2);
      List<InstanceKey> cpKeys = s.keys("cp-members", 62, 20);
      List<InstanceKey> apKeys = s.keys("ap-members", 63, 12);
      List<InstanceKey> beat = s.keys("ap-members-beat", 64, 4);
      Workload cp = s.start(Workload.Spec.cp("cp", 3, first, cpKeys));
      Workload ap = s.start(Workload.Spec.ap("ap", 3, first, apKeys));
      Workload beaters = s.start(ApWorkloads.beating(s, "beaters", 3, first, beat));
      s.awaitAcknowledged(cp, 20, Duration.ofSeconds(20));

      List<Integer> members = new ArrayList<>(first);
      for (int added : List.of(3, 4)) {
        s.disruption("add node " + added, first);
        Http.Response r = MemberChanges.add(s.cluster(), added, members, members.get(added % members.size()));
        s.expect("add-" + added, r.status() == 200, "add " + s.cluster().address(added) + ": " + r.status()
            + " " + r.body());
        members.add(added);
        s.awaitAcknowledged(cp, 20, Duration.ofSeconds(30));
      }
      Http.Response moved = s.cluster().http(0).post("/nacre/v1/raft/leader", Map.of("member", s.cluster().address(4)));
      s.expect("leader-to-4", moved.status() == 200, "leadership to node 4: " + moved.status() + " " + moved.body());
      for (int removed : List.of(4, 3)) {
        s.disruption("remove node " + removed, first);
        members.remove(Integer.valueOf(removed));
        Http.Response r = MemberChanges.remove(s.cluster(), removed, members.get(0));
        s.expect("remove-" + removed, r.status() == 200, "remove " + s.cluster().address(removed) + ": "
            + r.status() + " " + r.body());
        s.awaitAcknowledged(cp, 20, Duration.ofSeconds(30));
      }
      s.awaitLivenessEvidence(Scenario.CP_RECOVERY);
      long changed = System.nanoTime();
      cp.stop();
      ap.stop();

      ApConvergence.check(s, "convergence", first, Stream.concat(apKeys.stream(), beat.stream())
          .map(InstanceKey::service).distinct().toList(), changed, ApScenarioTest.CONVERGENCE, Set.copyOf(beat));
      beaters.stop();
      s.cluster().setMembers(4, List.of(0, 1, 2, 3, 4));
      String refusal;
      try {
        s.cluster().startNode(4);
        refusal = "node 4 started again as a member";
        s.cluster().stopNode(4);
      } catch (IllegalStateException e) {
        refusal = String.valueOf(e.getMessage());
      }
      s.expect("removed-stays-out", refusal.contains("was removed from the cluster"), refusal);
      s.checkLinearizable();
      s.checkDurable(first, Duration.ofSeconds(30));
      s.checkLiveness(Scenario.CP_RECOVERY);
      s.finish();
    }
  }
}
