package dev.nacre.consensus.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.proto.RaftProtos.RequestVoteRequestProto;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A member that campaigned while its peers' Raft ports were closed reaches a peer at its next
 * election once that peer listens, not when gRPC's reconnect backoff for the channel next expires.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LatePeerElectionTest {
  /**
   * Vote requests member 0 sends member 1 while alone: one per election round, 0.4-0.8 s apart, so
   * about 11 s, by which gRPC's backoff (from 1 s, 1.6x per failed connect) has grown to seconds.
   */
  private static final int VOTES_ALONE = 18;

  @Test
  void aCandidateReachesAPeerAtItsNextElectionAfterThePeerListens(@TempDir Path dir) {
    try (TestCluster cluster = new TestCluster(dir, 3, b -> b);
        SentRequests votesToPeer = SentRequests.of(RequestVoteRequestProto.class,
            RequestVoteRequestProto::getServerRequest, cluster.id(0), cluster.id(1))) {
      cluster.start(0);
      await().atMost(Duration.ofSeconds(40)).until(() -> votesToPeer.count() >= VOTES_ALONE);
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
