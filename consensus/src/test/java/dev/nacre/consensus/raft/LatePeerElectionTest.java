package dev.nacre.consensus.raft;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A member that campaigned while its peers' Raft ports were closed reaches a peer at its next
 * election once that peer listens, not when gRPC's reconnect backoff for the channel next expires.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LatePeerElectionTest {
  /** How long member 0 campaigns alone: gRPC's backoff grows 1.6x per failed connect from 1 s. */
  private static final Duration ALONE = Duration.ofSeconds(11);

  @Test
  void aCandidateReachesAPeerAtItsNextElectionAfterThePeerListens(@TempDir Path dir) throws InterruptedException {
    try (TestCluster cluster = new TestCluster(dir, 3, b -> b)) {
      cluster.start(0);
      // Not a synchronisation: the scenario is member 0 alone for this long. By then its channel
      // to member 1 has failed to connect about five times and waits seconds before the next try.
      Thread.sleep(ALONE.toMillis());
      assertThat(cluster.log(0).status().role()).as("member 0 alone").isNotEqualTo("LEADER");

      // Member 1 never campaigns itself, so only member 0's elections can make a leader.
      cluster.start(1, b -> b.electionTimeout(Duration.ofSeconds(30), Duration.ofSeconds(31))
          .requestTimeout(Duration.ofSeconds(32)));
      long listening = System.nanoTime();

      int leader = cluster.awaitLeader(Duration.ofSeconds(20));
      long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - listening);
      assertThat(leader).isZero();
      // Member 0's next election comes within its election timeout (at most 800 ms); without the
      // reset, the vote request failed at once until the channel's backoff ran out (4-8 s here).
      assertThat(ms).as("ms from member 1 listening to an agreed leader").isLessThan(3000);
    }
  }
}
