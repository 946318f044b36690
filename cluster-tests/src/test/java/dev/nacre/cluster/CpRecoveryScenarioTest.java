package dev.nacre.cluster;

import dev.nacre.cluster.check.InstanceKey;
import dev.nacre.node.config.NodeConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * CP scenarios about nodes coming back: a follower that lags past the leader's snapshot (its log
 * was purged), the whole cluster stopped and started again, one node's disk lost. Checks:
 * linearizability across the outage, every acknowledged CP write on every node afterwards, CP
 * liveness once a majority is back. docs/FAULTS.md.
 */
@Tag("scenario")
@Timeout(240)
class CpRecoveryScenarioTest {
  /** Raft log segments as Ratis names them: closed {@code log_<first>-<last>}, open {@code log_inprogress_<first>}. */
  private static final Pattern SEGMENT = Pattern.compile("log_(?:inprogress_)?(\\d+)(?:-\\d+)?");

  @TempDir Path dir;

  /**
   * A follower is stopped; the others take enough writes that the leader snapshots and purges its
   * log past what the follower holds; the follower restarts and can only catch up through the
   * leader's snapshot (install), then keeps following.
   */
  @Test
  void followerLagsPastASnapshot() {
    try (Scenario s = Scenario.builder("lagging-follower-snapshot")
        .setting(NodeConfig.SNAPSHOT_THRESHOLD, "40")
        .setting(NodeConfig.LOG_SEGMENT_SIZE, "4096")
        .start(dir)) {
      int leader = s.awaitLeader(Duration.ofSeconds(20));
      int lagging = s.allBut(List.of(leader)).get(0);
      List<Integer> rest = s.allBut(List.of(lagging));
      List<InstanceKey> keys = s.keys("cp-lagging", 50, 20);
      Workload onLagging = s.start(Workload.Spec.cp("lagging", 2, List.of(lagging), keys));
      Workload onRest = s.start(Workload.Spec.cp("rest", 2 * rest.size(), rest, keys).withPace(Duration.ofMillis(5)));
      s.awaitAcknowledged(onLagging, 10, Duration.ofSeconds(20));

      s.kill(lagging);
      // The stopped follower holds at most what the leader had appended when it stopped: the
      // leader's commit index plus the writes in flight (fewer than 20 with these workloads).
      int leaderNow = s.awaitLeaderAmong(rest, Duration.ofSeconds(10));
      long laggingLast = s.cluster().node(leaderNow).raftStatus().commitIndex() + 20;
      s.note("follower %d stopped; its log ends before index %d", lagging, laggingLast);
      Duration purged = Polling.until("the leader's log starts past the follower's last index", Duration.ofSeconds(60),
          () -> firstLogIndexOnDisk(s, s.cluster().leader()).orElse(0) > laggingLast + 1, s::dump);
      int now = s.cluster().leader();
      s.expect("leader-purged", true, "leader " + now + " log starts at "
          + firstLogIndexOnDisk(s, now).orElse(-1) + " > " + (laggingLast + 1) + " after " + purged.toMillis() + " ms");

      s.restart(lagging);
      long target = s.cluster().node(now).raftStatus().commitIndex();
      // Within 15 s: the leader's sender to a member that was down while it began a snapshot
      // once stayed blocked 24 s (1.5-5.5 s now; RatisProperties).
      Duration caughtUp = Polling.until("the restarted follower applies up to the leader's commit index",
          Duration.ofSeconds(15), () -> s.cluster().node(lagging).raftStatus().appliedIndex() >= target, s::dump);
      s.note("follower %d caught up to index %d in %d ms", lagging, target, caughtUp.toMillis());
      s.awaitAcknowledged(onLagging, 10, Duration.ofSeconds(30));
      onLagging.stop();
      onRest.stop();

      s.checkLinearizable();
      s.checkDurable(s.all(), Duration.ofSeconds(30));
      s.finish();
    }
  }

  /**
   * Every node is stopped while clients keep sending, then every node starts again on its folder:
   * every CP write acknowledged before is still there on every node, and writes resume.
   */
  @Test
  @Tag("quick")
  void fullClusterRestart() {
    try (Scenario s = Scenario.builder("full-restart").start(dir)) {
      s.awaitLeader(Duration.ofSeconds(20));
      List<InstanceKey> keys = s.keys("cp-restart", 51, 8);
      Workload w = s.start(Workload.Spec.cp("all", 2 * s.size(), s.all(), keys));
      s.awaitAcknowledged(w, 60, Duration.ofSeconds(20));

      for (int i = 0; i < s.size(); i++) {
        s.kill(i);
      }
      long before = s.acknowledgedCpWrites();
      for (int i = 0; i < s.size(); i++) {
        s.restart(i);
      }
      s.disruption("whole cluster restarted", s.all());
      s.cluster().awaitSettled();
      s.awaitLeader(Duration.ofSeconds(20));
      s.awaitAcknowledged(w, 30, Duration.ofSeconds(30));
      w.stop();
      s.note("%d CP writes acknowledged before the restart", before);

      s.finishCp();
    }
  }

  /**
   * A follower loses its disk (stopped, folder deleted) while clients write, and starts again
   * empty: it catches up from the others and nothing acknowledged is lost anywhere.
   */
  @Test
  @Tag("quick")
  void oneNodesDiskLost() {
    try (Scenario s = Scenario.builder("disk-lost").start(dir)) {
      int leader = s.awaitLeader(Duration.ofSeconds(20));
      int victim = s.allBut(List.of(leader)).get(0);
      List<Integer> rest = s.allBut(List.of(victim));
      List<InstanceKey> keys = s.keys("cp-disk", 52, 8);
      Workload onVictim = s.start(Workload.Spec.cp("victim", 2, List.of(victim), keys));
      Workload onRest = s.start(Workload.Spec.cp("rest", 2 * rest.size(), rest, keys));
      s.awaitAcknowledged(onVictim, 20, Duration.ofSeconds(20));

      s.wipe(victim);
      s.disruption("node " + victim + " lost its disk", rest);
      s.awaitAcknowledged(onRest, 30, Duration.ofSeconds(20));
      s.restart(victim);
      long target = s.cluster().node(s.awaitLeaderAmong(rest, Duration.ofSeconds(10))).raftStatus().commitIndex();
      Duration caughtUp = Polling.until("the wiped node applies up to the leader's commit index",
          Duration.ofSeconds(30), () -> s.cluster().node(victim).raftStatus().appliedIndex() >= target, s::dump);
      s.note("node %d rebuilt up to index %d in %d ms", victim, target, caughtUp.toMillis());
      s.awaitAcknowledged(onVictim, 10, Duration.ofSeconds(30));
      onVictim.stop();
      onRest.stop();

      s.finishCp();
    }
  }

  /** The first index still in node i's Raft log, from its segment files; empty when it has none. */
  static OptionalLong firstLogIndexOnDisk(Scenario s, int i) {
    if (i < 0) {
      return OptionalLong.empty();
    }
    Path raft = s.cluster().dataDir(i).resolve("raft");
    if (!Files.isDirectory(raft)) {
      return OptionalLong.empty();
    }
    try (Stream<Path> files = Files.walk(raft)) {
      return files.map(p -> SEGMENT.matcher(p.getFileName().toString()))
          .filter(Matcher::matches)
          .mapToLong(m -> Long.parseLong(m.group(1)))
          .min();
    } catch (IOException | UncheckedIOException e) {
      // A segment purged while walking: try again at the next poll.
      return OptionalLong.empty();
    }
  }
}
