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
 * The Raft leader is stopped while clients on every node write and read persistent instances; the
 * survivors elect a leader and acknowledge CP writes again within {@link Scenario#CP_RECOVERY}; the
 * old leader comes back on its folder and catches up. Checks: linearizable, no acknowledged write
 * lost on any node, CP liveness.
 */
@Tag("scenario")
@Tag("quick")
@Timeout(180)
class LeaderKillScenarioTest {
  @TempDir Path dir;

  @Test
  void leaderKill() {
    try (Scenario s = Scenario.builder("leader-kill").start(dir)) {
      int leader = s.awaitLeader(Duration.ofSeconds(20));
      List<InstanceKey> keys = s.keys("cp-leader-kill", 31, 6);
      Workload w = s.start(Workload.Spec.cp("kill", 2 * s.size(), s.all(), keys));
      s.awaitAcknowledged(w, 20, Duration.ofSeconds(20));

      // Timed from when the node is gone: while it closes it may still commit.
      s.kill(leader);
      s.disruption("leader " + leader + " stopped", s.allBut(List.of(leader)));
      s.awaitLeader(Duration.ofSeconds(15));
      s.awaitAcknowledged(w, 30, Duration.ofSeconds(20));

      s.restart(leader);
      s.awaitAcknowledged(w, 20, Duration.ofSeconds(20));
      w.stop();

      s.checkLinearizable();
      s.checkDurable(s.all(), Duration.ofSeconds(30));
      s.checkLiveness(Scenario.CP_RECOVERY);
      s.finish();
    }
  }
}
