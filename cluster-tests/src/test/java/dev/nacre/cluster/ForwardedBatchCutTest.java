package dev.nacre.cluster;

import static dev.nacre.cluster.LocalCluster.NS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The batches a member forwards to the leader travel on a call of the Raft port of their own:
 * a cut from the member to the leader reaches them through each node's {@code ForwardInterceptor}
 * ({@link RaftLinkHooks#FORWARDS}, set by {@link FaultSeams}), while the leader's appends to the
 * member still flow.
 */
@Timeout(120)
class ForwardedBatchCutTest {
  @TempDir Path dir;

  @Test
  void aWriteForwardedOverACutLinkIsRefusedAndNeverCommitted() {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of())) {
      RaftPartitionTest.awaitLeader(c);
      int leader = c.leader();
      int follower = (leader + 1) % 3;
      c.faults().cutOneWay(c.address(follower), c.address(leader));
      long dropsBefore = c.faults().dropped();

      var viaFollower = c.http(follower).post(NS + "/instance", RaftPartitionTest.persistent("forward-cut", "127.0.9.4"));
      assertThat(viaFollower.status()).as("%s\n%s", viaFollower.body(), c.describe()).isEqualTo(503);
      assertThat(c.hosts(leader, "forward-cut")).isEmpty();
      assertThat(c.faults().dropped()).isGreaterThan(dropsBefore);

      c.faults().heal(c.address(follower), c.address(leader));
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).ignoreExceptions().until(() ->
          c.http(follower).post(NS + "/instance", RaftPartitionTest.persistent("forward-cut", "127.0.9.5")).status() == 200);
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
          assertThat(c.hosts(leader, "forward-cut")).containsExactly("127.0.9.5:80"));
    }
  }
}
