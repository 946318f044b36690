package dev.nacre.cluster;

import dev.nacre.cluster.check.CheckResult;
import dev.nacre.cluster.check.InstanceKey;
import dev.nacre.cluster.check.Mode;
import dev.nacre.cluster.check.Op;
import dev.nacre.cluster.check.OpKind;
import dev.nacre.cluster.check.Outcome;
import dev.nacre.cluster.check.Verdict;
import dev.nacre.node.config.NodeConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Configuration scenarios: writers on every member publish (and remove) a few keys through each
 * member's {@code Node.configs()} while the leader stops, a minority is cut off, a member loses its
 * disk, or a nemesis schedule runs; official nacos-client listeners listen on every member. A key
 * is a register for the CP checkers (publish = write, read through {@code readBarrier()} then
 * {@code formal()} = read). Checks: linearizable, durability, monotonic reads per member,
 * convergence of content and history, every listener's last md5, liveness. docs/FAULTS.md.
 */
@Tag("scenario")
@Timeout(240)
class ConfigScenarioTest {
  @TempDir Path dir;

  /**
   * Several writers publish increasing versions of 4 keys through every member; the leader stops
   * and restarts. No acknowledged publish is lost and no member serves an older revision than it
   * served before.
   */
  @Test
  @Tag("quick")
  @Tag("seeded")
  void leaderKillDuringPublishes() {
    try (Scenario s = Scenario.builder("config-leader-kill").start(dir)) {
      int leader = s.awaitLeader(Duration.ofSeconds(20));
      ConfigWorkloadClient c = new ConfigWorkloadClient(s.cluster(), s.recorder());
      List<InstanceKey> keys = ConfigWorkloadClient.keys("leader-kill", 4);
      try (ConfigListenerProbe listeners = ConfigListenerProbe.on(s, keys)) {
        Workload w = s.start(ConfigWorkloads.spec(c, "publishers", 2 * s.size(), s.all(), keys, 0));
        s.awaitAcknowledged(w, 30, Duration.ofSeconds(20));

        s.kill(leader);
        s.disruption("leader " + leader + " stopped", s.allBut(List.of(leader)));
        s.awaitLeaderAmong(s.allBut(List.of(leader)), Duration.ofSeconds(15));
        s.awaitAcknowledged(w, 30, Duration.ofSeconds(20));
        s.restart(leader);
        s.awaitAcknowledged(w, 30, Duration.ofSeconds(20));
        s.awaitLivenessEvidence(Scenario.CP_RECOVERY);
        w.stop();

        finishConfig(s, c, keys, listeners, Scenario.CP_RECOVERY);
      }
    }
  }

  /**
   * A follower minority is cut off while clients publish and remove on both sides: the minority
   * refuses every publish within the CP timeout with UNAVAILABLE, the majority goes on; after the
   * heal every member has the same content and history.
   */
  @Test
  @Tag("quick")
  void minorityPartition() {
    try (Scenario s = Scenario.builder("config-minority-partition").start(dir)) {
      int leader = s.awaitLeader(Duration.ofSeconds(20));
      List<Integer> minority = s.allBut(List.of(leader)).subList(0, (s.size() - 1) / 2);
      List<Integer> majority = s.allBut(minority);
      ConfigWorkloadClient c = new ConfigWorkloadClient(s.cluster(), s.recorder());
      List<InstanceKey> keys = ConfigWorkloadClient.keys("partition", 4);
      try (ConfigListenerProbe listeners = ConfigListenerProbe.on(s, keys)) {
        Workload onMinority = s.start(ConfigWorkloads.spec(c, "minority", 2 * minority.size(), minority, keys, 0.15));
        Workload onMajority = s.start(ConfigWorkloads.spec(c, "majority", 2 * majority.size(), majority, keys, 0.15));
        // Linearizable reads only, so that the cut-off side is asked to read while the majority writes.
        Workload readers = s.start(Workload.Spec.cp("minority-readers", minority.size(), minority, keys)
            .withStep(ctx -> c.read(ctx.process(), ctx.node(), ctx.anyKey())));
        s.awaitAcknowledged(onMajority, 20, Duration.ofSeconds(20));
        s.awaitAcknowledged(onMinority, 5, Duration.ofSeconds(20));

        s.cluster().partition(minority);
        long cut = s.disruption("members " + minority + " cut off", majority);
        s.awaitLeaderAmong(majority, Duration.ofSeconds(15));
        s.awaitAcknowledged(onMajority, 30, Duration.ofSeconds(20));
        int wanted = 2 * onMinority.spec().processes();
        Polling.until(wanted + " publishes and 2 reads sent to the minority after the cut answered",
            Duration.ofSeconds(40), () -> minorityWrites(s, minority, cut, System.nanoTime()).size() >= wanted
                && minorityReads(s, minority, cut) >= 2, s::dump);

        long heal = System.nanoTime();
        s.cluster().faults().heal();
        s.disruption("heal: members " + minority + " catch up", minority);
        Duration back = s.awaitAcknowledged(onMinority, 5, Duration.ofSeconds(30));
        s.note("the minority's clients had 5 operations acknowledged %d ms after the heal", back.toMillis());
        s.awaitAcknowledged(onMajority, 10, Duration.ofSeconds(20));
        s.awaitLivenessEvidence(Scenario.CP_RECOVERY);
        onMinority.stop();
        onMajority.stop();
        readers.stop();

        s.checkMinorityRefuses(minority, cut, heal);
        List<Op> refused = minorityWrites(s, minority, cut, heal);
        List<Op> notUnavailable = refused.stream()
            .filter(o -> o.outcome() == Outcome.OK || !o.note().startsWith("UNAVAILABLE")).toList();
        s.check("refused-unavailable", notUnavailable.isEmpty()
            ? Verdict.pass(refused.size() + " publishes and removes to the minority refused as UNAVAILABLE")
            : Verdict.fail(notUnavailable.size() + " of " + refused.size() + " not refused as UNAVAILABLE; first: "
                + notUnavailable.get(0).describe(s.history().originNanos())), "");
        finishConfig(s, c, keys, listeners, Scenario.CP_RECOVERY);
      }
    }
  }

  /**
   * A follower stops, its folder is deleted while the others take publishes, and it starts empty.
   * Snapshots are taken every 40 entries and the log kept in 4 KiB segments, and it restarts only
   * once the leader's log no longer starts at index 1: it reinstalls the configuration state
   * (contents and history) from the leader's snapshot, then serves every acknowledged publish.
   */
  @Test
  @Tag("quick")
  void diskLost() {
    try (Scenario s = Scenario.builder("config-disk-lost")
        .setting(NodeConfig.SNAPSHOT_THRESHOLD, "40")
        .setting(NodeConfig.LOG_SEGMENT_SIZE, "4096")
        .start(dir)) {
      int leader = s.awaitLeader(Duration.ofSeconds(20));
      int victim = s.allBut(List.of(leader)).get(0);
      List<Integer> rest = s.allBut(List.of(victim));
      ConfigWorkloadClient c = new ConfigWorkloadClient(s.cluster(), s.recorder());
      List<InstanceKey> keys = ConfigWorkloadClient.keys("disk-lost", 6);
      Workload onVictim = s.start(ConfigWorkloads.spec(c, "victim", 2, List.of(victim), keys, 0.15));
      Workload onRest = s.start(ConfigWorkloads.spec(c, "rest", 2 * rest.size(), rest, keys, 0.15));
      s.awaitAcknowledged(onVictim, 20, Duration.ofSeconds(20));

      s.wipe(victim);
      c.diskLost(victim);
      s.disruption("member " + victim + " lost its disk", rest);
      s.awaitAcknowledged(onRest, 40, Duration.ofSeconds(20));
      Duration purged = Polling.until("the leader's log no longer starts at index 1", Duration.ofSeconds(60),
          () -> CpRecoveryScenarioTest.firstLogIndexOnDisk(s, s.cluster().leader()).orElse(0) > 1, s::dump);
      int now = s.cluster().leader();
      s.expect("leader-purged", true, "leader " + now + " log starts at "
          + CpRecoveryScenarioTest.firstLogIndexOnDisk(s, now).orElse(-1) + " after " + purged.toMillis() + " ms");
      s.restart(victim);
      long target = s.cluster().node(s.awaitLeaderAmong(rest, Duration.ofSeconds(10))).raftStatus().commitIndex();
      Duration caughtUp = Polling.until("the wiped member applies up to the leader's commit index",
          Duration.ofSeconds(30), () -> s.cluster().node(victim).raftStatus().appliedIndex() >= target, s::dump);
      s.note("member %d reinstalled up to index %d in %d ms", victim, target, caughtUp.toMillis());
      s.awaitAcknowledged(onVictim, 10, Duration.ofSeconds(30));
      onVictim.stop();
      onRest.stop();

      finishConfig(s, c, keys, null, Scenario.CP_RECOVERY);
    }
  }

  /**
   * The nemesis schedule of the naming scenarios (every kind of fault, seeded) over 60 s while
   * clients publish, remove and read on every member, listeners on every member; at the quiet
   * phase everything heals, then a full-cluster restart.
   */
  @Test
  @Tag("seeded")
  @Timeout(300)
  void nemesis() {
    Duration length = Duration.ofSeconds(60);
    try (Scenario s = Scenario.builder("config-nemesis-60s").start(dir)) {
      long seed = Long.getLong("nacre.faults.seed", s.seed());
      NemesisSchedule schedule = NemesisSchedule.generate(seed, NemesisSchedule.Params.everything(s.size(), length));
      System.out.println(schedule);
      s.expect(seed == s.seed() ? "schedule" : "schedule-seed-" + seed, schedule.violations().isEmpty(),
          "seed " + seed + ", " + schedule.events().size() + " events"
              + (schedule.violations().isEmpty() ? "" : "; broken rules: " + schedule.violations()));
      s.awaitLeader(Duration.ofSeconds(20));
      ConfigWorkloadClient c = new ConfigWorkloadClient(s.cluster(), s.recorder());
      List<InstanceKey> keys = ConfigWorkloadClient.keys("nemesis", 6);
      try (ConfigListenerProbe listeners = ConfigListenerProbe.on(s, keys)) {
        Workload w = s.start(ConfigWorkloads.spec(c, "config", 2 * s.size(), s.all(), keys, 0.15)
            .withBounds(5_000, length.plusSeconds(120)));
        s.awaitAcknowledged(w, 10, Duration.ofSeconds(20));

        List<NemesisExecutor.Applied> applied = new NemesisExecutor(Duration.ofSeconds(30), System.out::println)
            .run(schedule, new DiskLossTarget(new NemesisScenarioTest.RecordingTarget(s), c));
        long late = applied.stream().mapToLong(NemesisExecutor.Applied::lateMs).max().orElse(0);
        s.note("%d events applied, the latest %d ms after its time", applied.size(), late);
        s.disruption("quiet phase", s.all());
        s.awaitAcknowledged(w, 10, Duration.ofSeconds(20));

        for (int i = 0; i < s.size(); i++) {
          s.kill(i);
        }
        for (int i = 0; i < s.size(); i++) {
          s.restart(i);
        }
        s.disruption("full restart", s.all());
        s.cluster().awaitSettled();
        s.awaitAcknowledged(w, 10, Duration.ofSeconds(30));
        s.awaitLivenessEvidence(NemesisScenarioTest.NEMESIS_CP_RECOVERY);
        w.stop();

        finishConfig(s, c, keys, listeners, NemesisScenarioTest.NEMESIS_CP_RECOVERY);
      }
    }
  }

  /** The configuration checks, then the verdict. */
  private static void finishConfig(Scenario s, ConfigWorkloadClient c, List<InstanceKey> keys,
      ConfigListenerProbe listeners, Duration recovery) {
    s.checkLinearizable();
    ConfigChecks.durable(s, keys, s.all(), Duration.ofSeconds(30));
    ConfigChecks.monotonicReads(s, c.served());
    ConfigChecks.converged(s, keys, Duration.ofSeconds(30));
    if (listeners != null) {
      listeners.checkLastMd5(s, keys, Duration.ofSeconds(30));
    }
    s.checkLiveness(recovery);
    s.note("%d publishes and removes acknowledged, %d reads served", s.acknowledgedCpWrites(), c.served().size());
    s.finish();
  }

  /** CP writes sent to {@code minority} invoked in [from, to] and answered by {@code to}. */
  private static List<Op> minorityWrites(Scenario s, List<Integer> minority, long from, long to) {
    Set<String> nodes = s.cluster().addresses(minority);
    return s.history().ops().stream().filter(o -> o.mode() == Mode.CP && o.kind().isWrite()
        && nodes.contains(o.node()) && o.invokeNanos() >= from && o.invokeNanos() <= to && o.completeNanos() <= to)
        .toList();
  }

  /** Reads sent to {@code minority} after {@code from} that returned (any outcome). */
  private static long minorityReads(Scenario s, List<Integer> minority, long from) {
    Set<String> nodes = s.cluster().addresses(minority);
    return s.history().ops().stream().filter(o -> o.kind() == OpKind.READ && nodes.contains(o.node())
        && o.invokeNanos() >= from && o.completeNanos() != Long.MAX_VALUE).count();
  }

  /** The nemesis's target, telling the client when a member's disk is lost (its reads start over). */
  private record DiskLossTarget(NemesisExecutor.Target inner, ConfigWorkloadClient client)
      implements NemesisExecutor.Target {
    @Override public void partition(Set<Integer> side) { inner.partition(side); }
    @Override public void isolate(int node) { inner.isolate(node); }
    @Override public void cutOneWay(int from, int to) { inner.cutOneWay(from, to); }
    @Override public void lossy(double p) { inner.lossy(p); }
    @Override public void delay(Duration fixed, Duration jitter) { inner.delay(fixed, jitter); }
    @Override public void heal() { inner.heal(); }
    @Override public void kill(int node) { inner.kill(node); }
    @Override public void restart(int node) { inner.restart(node); }
    @Override public boolean awaitCaughtUp(int node, Duration bound) { return inner.awaitCaughtUp(node, bound); }
    @Override public void pause(int node, Duration duration) { inner.pause(node, duration); }
    @Override public void cutClients(int node) { inner.cutClients(node); }
    @Override public void healClients(int node) { inner.healClients(node); }
    @Override public void healAll() { inner.healAll(); }

    @Override
    public void wipe(int node) {
      inner.wipe(node);
      client.diskLost(node);
    }
  }
}
