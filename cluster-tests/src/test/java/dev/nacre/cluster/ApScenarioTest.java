package dev.nacre.cluster;

import dev.nacre.cluster.check.InstanceKey;
import dev.nacre.cluster.check.Mode;
import dev.nacre.cluster.check.Op;
import dev.nacre.cluster.check.Outcome;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.node.config.NodeConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
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
 * The AP scenarios: ephemeral instances replicated by Distro under a partition, an owner's death, a
 * vanished client, and loss and delay on every link. Each checks AP liveness (every AP write to a
 * live node acknowledged) and convergence after the fault (every node's ephemeral view equal, and
 * every instance whose client kept beating present everywhere), reporting how long convergence
 * took. docs/FAULTS.md.
 */
@Tag("scenario")
@Timeout(240)
class ApScenarioTest {
  /** Time for all views to agree after a heal: Distro batches (200 ms), verify (1 s here), detection, slack. */
  static final Duration CONVERGENCE = Duration.ofSeconds(10);

  @TempDir Path dir;

  private static List<String> services(List<InstanceKey> keys) {
    return keys.stream().map(InstanceKey::service).distinct().sorted().toList();
  }

  private static List<InstanceKey> concat(List<InstanceKey> a, List<InstanceKey> b) {
    return Stream.concat(a.stream(), b.stream()).toList();
  }

  /** AP writes OK during [from, to] on each of {@code nodes}. */
  private static Map<String, Long> okApWrites(Scenario s, List<Integer> nodes, long from, long to) {
    Map<String, Long> out = new TreeMap<>();
    for (int i : nodes) {
      String a = s.cluster().address(i);
      out.put(a, s.history().ops().stream().filter(o -> o.mode() == Mode.AP && o.kind().isWrite()
          && o.outcome() == Outcome.OK && o.node().equals(a) && o.invokeNanos() >= from && o.completeNanos() <= to)
          .count());
    }
    return out;
  }

  /**
   * A minority is cut off while clients on both sides register, beat and deregister ephemeral
   * instances: both sides accept every AP write; after the heal all views converge.
   */
  @Test
  @Tag("quick")
  void apPartition() {
    try (Scenario s = Scenario.builder("ap-partition").start(dir)) {
      List<Integer> order = new ArrayList<>(s.all());
      Collections.shuffle(order, s.random());
      List<Integer> minority = order.subList(0, (s.size() - 1) / 2);
      List<InstanceKey> keys = s.keys("ap-partition", 60, 12);
      List<InstanceKey> beat = s.keys("ap-partition-beat", 61, 4);
      Workload writers = s.start(Workload.Spec.ap("writers", 2 * s.size(), s.all(), keys));
      Workload beaters = s.start(ApWorkloads.beating(s, "beaters", s.size(), s.all(), beat));
      s.awaitAcknowledged(writers, 30, Duration.ofSeconds(20));

      s.cluster().partition(minority);
      long cut = System.nanoTime();
      s.runFor(Duration.ofSeconds(4));
      s.awaitAcknowledged(writers, 30, Duration.ofSeconds(20));
      writers.stop();
      long healed = System.nanoTime();
      s.cluster().faults().heal();

      Map<String, Long> accepted = okApWrites(s, s.all(), cut, healed);
      s.expect("both-sides-write", accepted.values().stream().allMatch(n -> n > 0),
          "AP writes acknowledged per node during the partition of " + s.cluster().addresses(minority) + ": " + accepted);
      ApConvergence.check(s, "convergence", s.all(), services(concat(keys, beat)), healed, CONVERGENCE, Set.copyOf(beat));
      beaters.stop();
      s.checkLiveness(Scenario.CP_RECOVERY);
      s.finish();
    }
  }

  /**
   * The member responsible for a service is stopped while clients beat its instances over HTTP
   * through every node: the survivors take the instances over (beats re-own them) and none is
   * missing from any survivor at any moment; after the member restarts, all views converge again.
   */
  @Test
  @Tag("quick")
  void ownerDeath() {
    try (Scenario s = Scenario.builder("ap-owner-death").start(dir)) {
      String service = "ap-owner";
      List<InstanceKey> beat = s.keys(service, 62, 8);
      String ownerAddress = s.cluster().node(0).cluster().orElseThrow()
          .responsibleMember(new ServiceKey(ServiceKey.DEFAULT_NAMESPACE, ServiceKey.DEFAULT_GROUP, service));
      int owner = s.cluster().indexOf(ownerAddress);
      List<Integer> survivors = s.allBut(List.of(owner));
      Workload beaters = s.start(ApWorkloads.beating(s, "beaters", 2 * s.size(), s.all(), beat));
      Polling.until("every beating instance on every node", Duration.ofSeconds(15),
          () -> s.all().stream().allMatch(i -> ApConvergence.view(s.cluster(), i, List.of(service)).keySet()
              .containsAll(beat)), s::dump);

      s.kill(owner);
      long killed = System.nanoTime();
      // Long enough to see the dead owner's grace period end (3 s here) after it is found DOWN.
      ApConvergence.check(s, "takeover", survivors, List.of(service), killed, CONVERGENCE, Set.copyOf(beat),
          Duration.ofSeconds(7), true);
      String newOwner = s.cluster().node(survivors.get(0)).cluster().orElseThrow()
          .responsibleMember(new ServiceKey(ServiceKey.DEFAULT_NAMESPACE, ServiceKey.DEFAULT_GROUP, service));
      s.expect("new-owner", !newOwner.equals(ownerAddress), "survivors route " + service + " to " + newOwner);

      s.restart(owner);
      long restarted = System.nanoTime();
      ApConvergence.check(s, "after-restart", s.all(), List.of(service), restarted, CONVERGENCE, Set.copyOf(beat),
          Duration.ofSeconds(3), false);
      beaters.stop();
      s.checkLiveness(Scenario.CP_RECOVERY);
      s.finish();
    }
  }

  /**
   * Clients register instances with short {@code preserved.*} heartbeat timing (unhealthy after
   * 1 s, removed after 2 s), beat them, then vanish without deregistering: the instances are
   * removed from every node once the delete timeout has passed since the last beat, never before,
   * while other clients' instances stay.
   */
  @Test
  @Tag("quick")
  void clientVanishes() {
    long deleteMs = 2_000;
    try (Scenario s = Scenario.builder("ap-client-vanishes").setting(NodeConfig.HEARTBEAT_SCAN, "200").start(dir)) {
      Map<String, String> timing = Map.of(Instance.HEART_BEAT_INTERVAL, "300", Instance.HEART_BEAT_TIMEOUT, "1000",
          Instance.IP_DELETE_TIMEOUT, String.valueOf(deleteMs));
      List<InstanceKey> vanishing = s.keys("ap-vanish", 63, 6);
      List<InstanceKey> staying = s.keys("ap-stay", 64, 3);
      int p = s.newProcess();
      List<String> refused = new ArrayList<>();
      for (int k = 0; k < vanishing.size(); k++) {
        Op op = ApWorkloads.register(s, p, k % s.size(), vanishing.get(k), timing);
        if (op.outcome() != Outcome.OK) {
          refused.add(op.toString());
        }
      }
      s.expect("registered", refused.isEmpty(), refused.isEmpty()
          ? vanishing.size() + " instances registered with " + timing : "refused: " + refused);
      Workload vanishers = s.start(ApWorkloads.beating(s, "vanishing", s.size(), s.all(), vanishing,
          Duration.ofMillis(100), timing));
      Workload stayers = s.start(ApWorkloads.beating(s, "staying", s.size(), s.all(), staying,
          Duration.ofMillis(100), timing));
      List<String> services = services(concat(vanishing, staying));
      Polling.until("every instance on every node", Duration.ofSeconds(15), () -> s.all().stream().allMatch(i ->
          ApConvergence.view(s.cluster(), i, services).keySet().containsAll(concat(vanishing, staying))), s::dump);
      s.awaitAcknowledged(vanishers, 3 * vanishing.size(), Duration.ofSeconds(10));

      vanishers.stop();
      // Each instance's last beat: no beat for it was sent after its latest invocation.
      Map<InstanceKey, Long> lastBeat = new TreeMap<>();
      s.history().ops().stream().filter(o -> o.mode() == Mode.AP && vanishing.contains(o.key()))
          .forEach(o -> lastBeat.merge(o.key(), o.invokeNanos(), Math::max));
      // Per node and instance: how long after that instance's last beat it was gone.
      Map<String, Long> goneAfterMs = new TreeMap<>();
      long bound = deleteMs + 3_000;
      Polling.poll(Duration.ofMillis(bound).plusSeconds(2), () -> {
        long now = System.nanoTime();
        for (int i : s.all()) {
          Set<InstanceKey> present = ApConvergence.view(s.cluster(), i, List.of("ap-vanish")).keySet();
          for (InstanceKey k : vanishing) {
            if (!present.contains(k)) {
              goneAfterMs.putIfAbsent(i + " " + k.instance(), (now - lastBeat.get(k)) / 1_000_000);
            }
          }
        }
        return goneAfterMs.size() == s.size() * vanishing.size() ? java.util.Optional.of(true) : java.util.Optional.empty();
      });
      long earliest = goneAfterMs.values().stream().mapToLong(Long::longValue).min().orElse(Long.MAX_VALUE);
      long latest = goneAfterMs.values().stream().mapToLong(Long::longValue).max().orElse(Long.MAX_VALUE);
      s.note("vanished instances gone %d..%d ms after their last beat on %d nodes (delete timeout %d ms)",
          earliest, latest, s.size(), deleteMs);
      s.expect("not-before-timeout", earliest >= deleteMs,
          "the first went " + earliest + " ms after its last beat (delete timeout " + deleteMs + " ms)");
      // Scan period 200 ms, Distro batch 200 ms, and slack for a shared machine.
      s.expect("removed-everywhere", goneAfterMs.size() == s.size() * vanishing.size() && latest <= bound,
          goneAfterMs.size() + " of " + s.size() * vanishing.size() + " (node, instance) pairs gone, the last "
              + latest + " ms after its last beat (bound " + bound + " ms)");
      ApConvergence.check(s, "convergence", s.all(), services, System.nanoTime(), CONVERGENCE, Set.copyOf(staying));
      stayers.stop();
      s.checkLiveness(Scenario.CP_RECOVERY);
      s.finish();
    }
  }

  /**
   * Every directed link either drops 10-25% of calls or delays them by 20-50 ms, while clients run
   * CP and AP operations on every node: CP stays linearizable and durable and keeps committing; AP
   * accepts every write; after the heal all ephemeral views converge.
   */
  @Test
  void lossAndDelayUnderLoad() {
    try (Scenario s = Scenario.builder("loss-and-delay").start(dir)) {
      s.awaitLeader(Duration.ofSeconds(20));
      List<InstanceKey> cpKeys = s.keys("cp-lossy", 65, 6);
      List<InstanceKey> apKeys = s.keys("ap-lossy", 66, 10);
      List<InstanceKey> beat = s.keys("ap-lossy-beat", 67, 3);
      Workload cp = s.start(Workload.Spec.cp("cp", 2 * s.size(), s.all(), cpKeys));
      Workload ap = s.start(Workload.Spec.ap("ap", s.size(), s.all(), apKeys));
      Workload beaters = s.start(ApWorkloads.beating(s, "beaters", s.size(), s.all(), beat));
      s.awaitAcknowledged(cp, 20, Duration.ofSeconds(20));

      List<String> faults = new ArrayList<>();
      for (String from : new TreeSet<>(s.cluster().members())) {
        for (String to : new TreeSet<>(s.cluster().members())) {
          if (!from.equals(to)) {
            LinkFaults.Fault f = s.random().nextBoolean()
                ? new LinkFaults.Lossy(0.10 + 0.05 * s.random().nextInt(4))
                : new LinkFaults.Delay(Duration.ofMillis(20 + s.random().nextInt(31)), Duration.ofMillis(s.random().nextInt(31)));
            s.cluster().faults().set(from, to, f);
            faults.add(s.cluster().indexOf(from) + "->" + s.cluster().indexOf(to) + " " + f);
          }
        }
      }
      s.note("link faults: %s", faults);
      s.disruption("loss and delay on every link", s.all());
      s.runFor(Duration.ofSeconds(8));
      s.awaitAcknowledged(cp, 20, Duration.ofSeconds(20));
      ap.stop();
      long healed = System.nanoTime();
      s.cluster().faults().heal();

      ApConvergence.check(s, "convergence", s.all(), services(concat(apKeys, beat)), healed, CONVERGENCE, Set.copyOf(beat));
      s.awaitAcknowledged(cp, 10, Duration.ofSeconds(20));
      cp.stop();
      beaters.stop();
      s.finishCp();
    }
  }
}
