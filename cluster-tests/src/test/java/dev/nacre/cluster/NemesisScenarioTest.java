package dev.nacre.cluster;

import dev.nacre.cluster.check.InstanceKey;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Randomized runs: a seeded {@link NemesisSchedule} of every kind of fault over T seconds, applied
 * by the {@link NemesisExecutor} while clients run CP operations, AP writes and AP beats on every
 * node. At the quiet phase every fault is healed; then AP convergence, CP liveness after the heal,
 * a full-cluster restart, and linearizability, durability and liveness over the whole history.
 *
 * <p>The schedule's seed is the scenario seed ({@code -Dnacre.suite.seed}, printed in the verdict
 * line), unless {@code -Dnacre.faults.seed} names another; the schedule is printed in full.
 */
@Tag("scenario")
@Tag("seeded")
class NemesisScenarioTest {
  /** How soon CP writes must succeed after each fault: faults can pile up (a kill during a lossy phase). */
  static final Duration NEMESIS_CP_RECOVERY = Duration.ofSeconds(10);

  @TempDir Path dir;

  @Test
  @Tag("quick")
  @Timeout(300)
  void nemesisShort() {
    run("nemesis-75s", Duration.ofSeconds(75));
  }

  @Test
  @Timeout(600)
  void nemesisLong() {
    run("nemesis-180s", Duration.ofSeconds(180));
  }

  private void run(String name, Duration length) {
    try (Scenario s = Scenario.builder(name).start(dir)) {
      long seed = Long.getLong("nacre.faults.seed", s.seed());
      NemesisSchedule schedule = NemesisSchedule.generate(seed, NemesisSchedule.Params.everything(s.size(), length));
      System.out.println(schedule);
      if (seed != s.seed()) {
        s.note("schedule seed %d from -Dnacre.faults.seed (not the scenario seed)", seed);
      }
      // The check's name carries the schedule's seed when it is not the one in the verdict line.
      s.expect(seed == s.seed() ? "schedule" : "schedule-seed-" + seed, schedule.violations().isEmpty(), "seed " + seed + ", " + schedule.events().size()
          + " events " + kinds(schedule) + (schedule.violations().isEmpty() ? "" : "; broken rules: " + schedule.violations()));

      s.awaitLeader(Duration.ofSeconds(20));
      List<InstanceKey> cpKeys = s.keys("cp-nemesis", 70, 8);
      List<InstanceKey> apKeys = s.keys("ap-nemesis", 71, 10);
      List<InstanceKey> beat = s.keys("ap-nemesis-beat", 72, 4);
      Workload cp = s.start(Workload.Spec.cp("cp", 2 * s.size(), s.all(), cpKeys)
          .withBounds(5_000, length.plusSeconds(120)));
      Workload ap = s.start(Workload.Spec.ap("ap", s.size(), s.all(), apKeys).withPace(Duration.ofMillis(50))
          .withBounds(5_000, length.plusSeconds(120)));
      Workload beaters = s.start(ApWorkloads.beating(s, "beaters", s.size(), s.all(), beat));
      s.awaitAcknowledged(cp, 10, Duration.ofSeconds(20));

      List<NemesisExecutor.Applied> applied = new NemesisExecutor(Duration.ofSeconds(30), System.out::println)
          .run(schedule, new RecordingTarget(s));
      long healed = System.nanoTime();
      long late = applied.stream().mapToLong(NemesisExecutor.Applied::lateMs).max().orElse(0);
      s.note("%d events applied, the latest %d ms after its time", applied.size(), late);

      ap.stop();
      List<String> apServices = Stream.concat(apKeys.stream(), beat.stream()).map(InstanceKey::service).distinct().toList();
      ApConvergence.check(s, "convergence", s.all(), apServices, healed, Duration.ofSeconds(15), Set.copyOf(beat));
      s.disruption("quiet phase", s.all());
      s.awaitAcknowledged(cp, 10, Duration.ofSeconds(20));

      // A full-cluster restart: what was acknowledged must be on every disk.
      for (int i = 0; i < s.size(); i++) {
        s.kill(i);
      }
      for (int i = 0; i < s.size(); i++) {
        s.restart(i);
      }
      s.disruption("full restart", s.all());
      s.cluster().awaitSettled();
      s.awaitAcknowledged(cp, 10, Duration.ofSeconds(30));
      cp.stop();
      beaters.stop();

      s.checkLinearizable();
      s.checkDurable(s.all(), Duration.ofSeconds(30));
      s.checkLiveness(NEMESIS_CP_RECOVERY);
      s.finish();
    }
  }

  private static Map<String, Long> kinds(NemesisSchedule schedule) {
    Map<String, Long> out = new TreeMap<>();
    schedule.events().forEach(e -> out.merge(e.fault().getClass().getSimpleName(), 1L, Long::sum));
    return out;
  }

  /**
   * Applies faults to the scenario's cluster and records what the liveness checker needs: a CP
   * disruption (with the majority that must go on) for each fault that can interrupt CP writes,
   * and an outage for each node that clients cannot use (killed, wiped, paused, cut off).
   */
  static final class RecordingTarget implements NemesisExecutor.Target {
    private final Scenario s;
    private final NemesisExecutor.Target cluster;
    private final Set<Integer> down = new TreeSet<>();
    private final Map<Integer, Long> cutSince = new TreeMap<>();

    RecordingTarget(Scenario s) {
      this.s = s;
      this.cluster = NemesisExecutor.on(s.cluster());
    }

    /** Every node but {@code out} and those down: the side that must keep committing. */
    private List<Integer> majorityWithout(Set<Integer> out) {
      List<Integer> m = new ArrayList<>(s.all());
      m.removeAll(out);
      m.removeAll(down);
      return m;
    }

    @Override
    public void partition(Set<Integer> side) {
      cluster.partition(side);
      s.disruption("partition " + side, majorityWithout(side));
    }

    @Override
    public void isolate(int node) {
      cluster.isolate(node);
      s.disruption("isolate " + node, majorityWithout(Set.of(node)));
    }

    @Override
    public void cutOneWay(int from, int to) {
      cluster.cutOneWay(from, to);
      // The node that cannot send is the one that may be left out: when the leader is the node it
      // cannot reach, its writes cannot get there (and that leader keeps leading: its own calls
      // are answered). The node that cannot hear can lead (its calls carry the answers back), so
      // with the third node down it is the only one whose writes must go through.
      s.disruption("cut " + from + " -> " + to, majorityWithout(Set.of(from)));
    }

    @Override
    public void lossy(double p) {
      cluster.lossy(p);
    }

    @Override
    public void delay(Duration fixed, Duration jitter) {
      cluster.delay(fixed, jitter);
    }

    @Override
    public void heal() {
      cluster.heal();
    }

    @Override
    public void kill(int node) {
      s.kill(node);
      down.add(node);
      s.disruption("kill " + node, majorityWithout(Set.of()));
    }

    @Override
    public void wipe(int node) {
      s.wipe(node);
      down.add(node);
      s.disruption("wipe " + node, majorityWithout(Set.of()));
    }

    @Override
    public void restart(int node) {
      s.restart(node);
      down.remove(node);
    }

    @Override
    public boolean awaitCaughtUp(int node, Duration bound) {
      return cluster.awaitCaughtUp(node, bound);
    }

    @Override
    public void pause(int node, Duration duration) {
      long now = System.nanoTime();
      cluster.pause(node, duration);
      // Requests sent while it sleeps are answered when it wakes; they are not AP liveness failures.
      s.outage(node, now, now + duration.toNanos());
      s.disruption("pause " + node, majorityWithout(Set.of(node)));
    }

    @Override
    public void cutClients(int node) {
      cluster.cutClients(node);
      cutSince.put(node, System.nanoTime());
    }

    @Override
    public void healClients(int node) {
      cluster.healClients(node);
      Long from = cutSince.remove(node);
      if (from != null) {
        s.outage(node, from, System.nanoTime());
      }
    }

    @Override
    public void healAll() {
      cluster.healAll();
      long now = System.nanoTime();
      cutSince.forEach((node, from) -> s.outage(node, from, now));
      cutSince.clear();
    }
  }
}
