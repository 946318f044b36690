package dev.nacre.consensus.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A member added to a running group may come to lead: the members that started before it, whose
 * configured peers do not list it, must still reach it with the writes they forward, and count it
 * when they say how many members a quorum needs.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GrownGroupForwardTest {
  private static final Duration BOUND = Duration.ofSeconds(20);

  @Test
  void writesReachALeaderThatJoinedAfterTheWritersStarted(@TempDir Path dir) throws Exception {
    try (TestCluster cluster = new TestCluster(dir, 4, b -> b)) {
      Map<String, String> all = cluster.peers();
      Map<String, String> firstThree = new LinkedHashMap<>(all);
      firstThree.remove(cluster.id(3));
      for (int i = 0; i < 3; i++) {
        cluster.start(i, b -> b.peers(firstThree));
      }
      int leader = cluster.awaitLeader(BOUND);
      cluster.log(leader).submit(KvStateMachine.put("before", "1")).get(10, TimeUnit.SECONDS);

      // As an operator adds a member: it starts with the new list, then the group takes it in.
      cluster.start(3);
      cluster.log(leader).admin().changePeers(all, BOUND);
      cluster.log(leader).admin().transferLeadership(cluster.id(3));
      assertThat(cluster.awaitLeader(BOUND)).as("the new member leads").isEqualTo(3);

      for (int i = 0; i < 3; i++) {
        cluster.log(i).submit(KvStateMachine.put("through-" + i, "v")).get(10, TimeUnit.SECONDS);
        assertThat(cluster.machine(i).get("through-" + i)).as("member %d applied its own write", i).contains("v");
      }
      assertThat(cluster.machine(3).get("through-0")).contains("v");

      // Two of four members down: no quorum, and the refusal counts the members the group has now.
      cluster.stop(1);
      cluster.stop(2);
      assertThatThrownBy(() -> cluster.log(0).submit(KvStateMachine.put("no-quorum", "v")).get(20, TimeUnit.SECONDS))
          .hasRootCauseInstanceOf(ConsensusUnavailableException.class)
          .rootCause().hasMessageContaining("3 of 4 members must be up");
    }
  }
}
