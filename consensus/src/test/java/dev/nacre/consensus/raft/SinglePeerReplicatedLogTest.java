package dev.nacre.consensus.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.nacre.consensus.raft.internal.PlainRatisMetrics;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import javax.management.ObjectName;
import org.apache.ratis.metrics.MetricRegistries;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class SinglePeerReplicatedLogTest {
  @TempDir Path dir;

  /** The one member started and leading, with k0=v0, k1=v1, ... {@code puts} of them, applied. */
  private TestCluster leaderAfterPuts(int puts) {
    TestCluster cluster = TestCluster.started(dir, 1, b -> b);
    try {
      cluster.log(0).awaitLeader(Duration.ofSeconds(10));
      for (int i = 0; i < puts; i++) {
        cluster.log(0).submit(KvStateMachine.put("k" + i, "v" + i)).join();
      }
      return cluster;
    } catch (RuntimeException | Error e) {
      cluster.close();
      throw e;
    }
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void submitAppliesAndRestartNeitherLosesNorReappliesEntries() {
    try (TestCluster cluster = leaderAfterPuts(20)) {
      byte[] old = cluster.log(0).submit(KvStateMachine.put("k0", "again")).join();
      assertThat(new String(old, StandardCharsets.UTF_8)).isEqualTo("v0");
      assertThat(cluster.machine(0).applies()).isEqualTo(21);
      long appliedBefore = cluster.machine(0).lastAppliedIndex();

      cluster.stop(0);
      cluster.start(0);
      cluster.log(0).awaitLeader(Duration.ofSeconds(10));
      await().atMost(Duration.ofSeconds(10))
          .until(() -> cluster.log(0).status().appliedIndex() >= appliedBefore);

      assertThat(cluster.machine(0).get("k0")).contains("again");
      assertThat(cluster.machine(0).get("k19")).contains("v19");
      assertThat(cluster.machine(0).applies()).as("entries replayed after restart must be skipped").isZero();
      cluster.log(0).submit(KvStateMachine.put("k20", "v20")).join();
      assertThat(cluster.machine(0).applies()).isEqualTo(1);
      assertThat(cluster.machine(0).size()).isEqualTo(21);
    }
  }

  /**
   * The leader hands its entries to its own division: Ratis' server-wide entry point would pass each
   * to a pool thread of its own (named after the member, "-client-thread") and wait for it, two
   * thread switches per entry.
   */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void theLeadersEntriesTakeNoHopThroughRatisClientPool() {
    try (TestCluster cluster = leaderAfterPuts(20)) {
      assertThat(cluster.machine(0).applies()).isEqualTo(20);
      String pool = cluster.log(0).config().selfId() + "-client-thread";
      assertThat(Thread.getAllStackTraces().keySet()).map(Thread::getName).noneMatch(name -> name.startsWith(pool));
    }
  }

  /**
   * Ratis would register every metric of a member as an MBean (starting the platform MBean server
   * on the member's start) unless a reporter is registered first; nothing reads them there.
   */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void ratisMetricsStayOutOfJmx() {
    try (TestCluster cluster = leaderAfterPuts(0)) {
      cluster.log(0).submit(KvStateMachine.put("k", "v")).join();

      assertThat(ManagementFactory.getPlatformMBeanServer().queryNames(null, null))
          .map(ObjectName::getDomain).noneMatch(domain -> domain.startsWith("ratis"));
      // Ratis found Nacre's registries (no sampling reservoirs) and registered its metrics there.
      assertThat(MetricRegistries.global()).isInstanceOf(PlainRatisMetrics.class);
      assertThat(MetricRegistries.global().getMetricRegistryInfos()).isNotEmpty();
    }
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void rejectedOperationFailsTheSubmitAndLeavesStateAlone() {
    try (TestCluster cluster = leaderAfterPuts(0)) {
      cluster.log(0).submit(KvStateMachine.create("svc", "first")).join();
      long appliedBefore = cluster.machine(0).lastAppliedIndex();

      assertThatThrownBy(() -> cluster.log(0).submit(KvStateMachine.create("svc", "second")).join())
          .isInstanceOf(CompletionException.class)
          .cause().isInstanceOf(OperationRejectedException.class).hasMessageContaining("already exists");

      assertThat(cluster.machine(0).get("svc")).contains("first");
      assertThat(cluster.machine(0).applies()).isEqualTo(1);
      // The refused entry is consumed (so a replay does not redo it), with no data written.
      assertThat(cluster.machine(0).lastAppliedIndex()).isGreaterThan(appliedBefore);
      // The group keeps working after a rejection.
      cluster.log(0).submit(KvStateMachine.put("svc", "third")).join();
      assertThat(cluster.machine(0).get("svc")).contains("third");
    }
  }
}
