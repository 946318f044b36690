package dev.nacre.cluster;

import dev.nacre.cluster.check.CheckResult;
import dev.nacre.cluster.check.History;
import dev.nacre.cluster.check.HistoryRecorder;
import dev.nacre.cluster.check.InstanceKey;
import dev.nacre.cluster.check.LinearizabilityChecker;
import dev.nacre.cluster.check.LinearizabilityResult;
import dev.nacre.cluster.check.Mode;
import dev.nacre.cluster.check.Outcome;
import dev.nacre.cluster.check.Verdict;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One fault scenario: a {@link LocalCluster}, the clients' recorded history, the fault timeline the
 * checkers need (CP disruptions, node outages), and the checks. A scenario test starts one with
 * {@link #builder}, runs workloads and faults, calls the {@code check*} methods, and ends with
 * {@link #finish()}, which prints and records ONE verdict line:
 *
 * <pre>SCENARIO leader-kill nodes=3 seed=123 PASS ops=812 unknown=3 linearizable=ok durability=ok liveness=ok 14.2s</pre>
 *
 * and fails the test (with the check reports, a {@link ClusterDump} and the seed) unless every
 * check passed. A scenario that ends without {@link #finish()} (an exception) records a FAIL line
 * "aborted" on close, so that the suite never loses a scenario silently.
 *
 * <p>System properties: {@value #NODES} (cluster size where the scenario allows it, default 3),
 * {@value #SEED} (the seed of the workloads' operation choices and of the scenario's own random
 * choices; random if absent, always printed), {@value #RESULTS} (folder of verdicts.log,
 * default {@code target/fault-suite}). Not thread-safe: one test thread drives a scenario.
 *
 * <p>The checks' results and the verdict line are kept by a {@link ScenarioVerdict}, the faults'
 * times by a {@link FaultTimeline}; this class runs the cluster, the workloads and the faults.
 */
final class Scenario implements AutoCloseable {
  static final String NODES = "nacre.suite.nodes";
  static final String SEED = "nacre.suite.seed";
  static final String RESULTS = "nacre.suite.results";
  /**
   * How soon after a leader loss the majority must acknowledge a CP write again: detection and
   * election (about 1 s with 400/800 ms election timeouts), a write that may time out once at the
   * CP timeout (3 s) while it waits for the old leader, and slack for a shared 2-core machine (5.1 s
   * was seen at a load average of 36, with elections repeated because timers ran late).
   */
  static final Duration CP_RECOVERY = Duration.ofSeconds(8);
  /** How long a minority may take to refuse a CP write: the CP timeout (3 s) plus slack. */
  static final Duration MINORITY_REFUSAL = Duration.ofMillis(4_500);

  private final String name;
  private final long seed;
  private final Random random;
  private final long startNanos = System.nanoTime();
  private final ScenarioVerdict verdict;
  private final LocalCluster cluster;
  private final FaultTimeline timeline;
  private final HistoryRecorder recorder = new HistoryRecorder();
  private final WorkloadClient client;
  private final ElectionWatch elections;
  private final AtomicInteger processIds = new AtomicInteger();
  private final List<Workload> workloads = new ArrayList<>();
  private final Set<String> services = new TreeSet<>();

  static ScenarioBuilder builder(String name) {
    return new ScenarioBuilder(name);
  }

  Scenario(String name, int size, int spares, long seed, Path dir, Map<String, String> settings) {
    this.name = name;
    this.seed = seed;
    this.random = new Random(seed);
    this.verdict = new ScenarioVerdict(name, size, seed, startNanos);
    LocalCluster c = null;
    try {
      c = spares == 0 ? LocalCluster.start(dir, size, settings)
          : LocalCluster.startGrowable(dir, size, size + spares, settings);
    } catch (RuntimeException e) {
      verdict.clusterDidNotStart(recorder.history());
      throw e;
    }
    this.cluster = c;
    this.timeline = new FaultTimeline(cluster);
    this.client = new WorkloadClient(cluster, recorder);
    this.elections = new ElectionWatch(cluster);
  }

  String name() {
    return name;
  }

  long seed() {
    return seed;
  }

  /** The scenario's own random choices (which node to kill, ...): seeded, so a seed replays them. */
  Random random() {
    return random;
  }

  LocalCluster cluster() {
    return cluster;
  }

  WorkloadClient client() {
    return client;
  }

  HistoryRecorder recorder() {
    return recorder;
  }

  int size() {
    return cluster.size();
  }

  /** When the scenario began (before its cluster started), in {@link System#nanoTime()}. */
  long startNanos() {
    return startNanos;
  }

  /** Time since the scenario began (before its cluster started). */
  Duration elapsed() {
    return Duration.ofNanos(System.nanoTime() - startNanos);
  }

  /** A fresh process id for a client that is not part of a {@link Workload}. */
  int newProcess() {
    return processIds.getAndIncrement();
  }

  /** A line for the report (printed with the verdict, not part of it). */
  void note(String format, Object... args) {
    verdict.note(String.format(Locale.ROOT, format, args));
  }

  /** {@code count} persistent-instance keys of {@code service}: {@code 127.0.<octet>.1:80} onwards. */
  List<InstanceKey> keys(String service, int octet, int count) {
    services.add(service);
    List<InstanceKey> out = new ArrayList<>();
    for (int k = 1; k <= count; k++) {
      out.add(InstanceKey.of(service, "127.0." + octet + "." + k + ":80"));
    }
    return out;
  }

  /** Starts workers; their services are checked and dumped. */
  Workload start(Workload.Spec spec) {
    services.addAll(spec.services());
    Workload w = Workload.start(spec, client, seed, processIds::getAndIncrement);
    workloads.add(w);
    return w;
  }

  /** Waits for a Raft leader among the running nodes; its index. */
  int awaitLeader(Duration atMost) {
    Polling.until("a Raft leader", atMost, () -> cluster.leader() >= 0, this::dump);
    return cluster.leader();
  }

  /** Waits until {@code w} has had {@code more} operations acknowledged after now; how long it took. */
  Duration awaitAcknowledged(Workload w, int more, Duration atMost) {
    int target = w.acknowledged() + more;
    return Polling.until(more + " more acknowledged operations of workload " + w.spec().name() + " (at "
        + w.acknowledged() + ")", atMost, () -> w.acknowledged() >= target, this::dump);
  }

  /** Waits for a Raft leader among {@code candidates} (an isolated old leader may still think it leads); its index. */
  int awaitLeaderAmong(Collection<Integer> candidates, Duration atMost) {
    int[] found = {-1};
    Polling.until("a Raft leader among " + cluster.addresses(candidates), atMost, () -> {
      for (int i : candidates) {
        if (isLeader(i)) {
          found[0] = i;
          return true;
        }
      }
      return false;
    }, this::dump);
    return found[0];
  }

  private boolean isLeader(int i) {
    try {
      return cluster.node(i).raftStatus().role().equals("LEADER");
    } catch (IllegalStateException stopped) {
      return false;
    }
  }

  /** Every node index but those given. */
  List<Integer> allBut(Collection<Integer> excluded) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < size(); i++) {
      if (!excluded.contains(i)) {
        out.add(i);
      }
    }
    return out;
  }

  List<Integer> all() {
    return allBut(List.of());
  }

  // ---- the fault timeline ----

  /** Stops node i now (an outage for the liveness checker until {@link #restart}). */
  void kill(int i) {
    timeline.down(i);
    cluster.stopNode(i);
  }

  /** Stops node i and deletes its folder (disk lost). */
  void wipe(int i) {
    timeline.downUnlessDown(i);
    cluster.wipeNode(i);
  }

  /** Stops every node and deletes every folder: the cluster starts a new Raft history (terms from 1). */
  void wipeAll() {
    for (int i = 0; i < size(); i++) {
      wipe(i);
    }
    elections.newRaftHistory();
  }

  /** Starts node i again on its folder; ends its outage. */
  void restart(int i) {
    cluster.startNode(i);
    timeline.up(List.of(i));
  }

  /**
   * Starts the stopped nodes {@code indexes} at the same time (one thread each), as when every
   * process of a cluster is launched together; returns once all are up.
   */
  void restartTogether(Collection<Integer> indexes) {
    NodeStarter.startTogether(cluster, indexes, this::dump);
    timeline.up(indexes);
  }

  /** Records that node i is down (paused, or unreachable for clients) over an interval. */
  void outage(int i, long fromNanos, long toNanos) {
    timeline.outage(i, fromNanos, toNanos);
  }

  /**
   * A fault that may interrupt CP writes starts now; the liveness check requires an acknowledged
   * CP write on {@code majority} within its bound. Returns the time recorded.
   */
  long disruption(String label, Collection<Integer> majority) {
    return timeline.disruption(label, majority);
  }

  // ---- checks ----

  History history() {
    return recorder.history();
  }

  /** A scenario-specific check, e.g. "minority-refuses". */
  void check(String checkName, Verdict result, String report) {
    verdict.check(checkName, result, report);
  }

  /** A scenario-specific check that passes iff {@code ok}. */
  void expect(String checkName, boolean ok, String reason) {
    check(checkName, ok ? Verdict.pass(reason) : Verdict.fail(reason), "");
  }

  /** Linearizability of every CP operation so far. */
  LinearizabilityResult checkLinearizable() {
    LinearizabilityResult r = new LinearizabilityChecker().check(history());
    check("linearizable", r.verdict(), r.report());
    return r;
  }

  /**
   * Reads the persistent instances of every checked service from each of {@code nodes} with a
   * linearizable read (so each has caught up with the log), retrying within {@code catchUp}, and
   * checks them against the acknowledged writes ({@link DurabilityCheck}).
   */
  CheckResult checkDurable(Collection<Integer> nodes, Duration catchUp) {
    CheckResult r = DurabilityCheck.check(this, services, nodes, catchUp);
    check("durability", r.verdict(), r.report());
    return r;
  }

  /**
   * A minority never acknowledges a CP write, and says so in time: every CP write sent to one of
   * {@code minority} that was invoked in {@code [fromNanos, toNanos]} and completed before
   * {@code toNanos} (the heal) is not OK and completed within {@link #MINORITY_REFUSAL}; at least
   * one was sent. Writes still running at the heal may legitimately succeed after it.
   */
  CheckResult checkMinorityRefuses(Collection<Integer> minority, long fromNanos, long toNanos) {
    CheckResult r = MinorityRefusalCheck.check(history(), cluster.addresses(minority), fromNanos, toNanos,
        MINORITY_REFUSAL);
    check("minority-refuses", r.verdict(), r.report());
    return r;
  }

  /** Lets the workloads run for {@code d}: a phase of the scenario, not a wait for a condition. */
  void runFor(Duration d) {
    long end = System.nanoTime() + d.toNanos();
    while (System.nanoTime() - end < 0) {
      java.util.concurrent.locks.LockSupport.parkNanos(Math.min(end - System.nanoTime(), 50_000_000L));
      if (Thread.interrupted()) {
        throw new IllegalStateException("interrupted while running a scenario phase");
      }
    }
  }

  /** CP writes resume within {@code bound} after each disruption; AP writes on live nodes all OK. */
  CheckResult checkLiveness(Duration bound) {
    CheckResult r = timeline.checkLiveness(bound, history());
    check("liveness", r.verdict(), r.report());
    return r;
  }

  /**
   * Call while the CP workloads still run: returns once each disruption has an acknowledged CP
   * write on its majority, or its bound (plus a CP write's timeout, so that writes in flight at the
   * bound are answered) has passed. Stopping earlier leaves {@link #checkLiveness} too little
   * evidence (issue 11 §4: a run that ended 7.2 s into an 8 s bound with two refusals).
   */
  void awaitLivenessEvidence(Duration bound) {
    timeline.awaitEvidence(bound, this::history);
  }

  // ---- the verdict ----

  /**
   * The usual end of a scenario with CP clients: the history is linearizable, every acknowledged
   * write is on every node (30 s to catch up), the majority recovered within
   * {@link #CP_RECOVERY}; then {@link #finish()}.
   */
  void finishCp() {
    checkLinearizable();
    checkDurable(all(), Duration.ofSeconds(30));
    checkLiveness(CP_RECOVERY);
    finish();
  }

  /**
   * Stops the workloads still running, prints and records the verdict line, and fails the test
   * with the reports, the cluster dump and the seed unless every check passed.
   */
  void finish() {
    stopWorkloads();
    check("one-leader", elections.verdict(), "");
    if (cluster.faults().dropped() > 0) {
      note("%d calls between nodes dropped by the link faults", cluster.faults().dropped());
    }
    verdict.finish(history(), this::dump);
  }

  String dump() {
    return ClusterDump.of(cluster, services) + "seed " + seed + "\n";
  }

  private void stopWorkloads() {
    for (Workload w : workloads) {
      w.stop();
    }
  }

  /** Operations issued in CP mode so far that were acknowledged. */
  long acknowledgedCpWrites() {
    return history().ops().stream()
        .filter(o -> o.mode() == Mode.CP && o.kind().isWrite() && o.outcome() == Outcome.OK).count();
  }

  @Override
  public void close() {
    try {
      verdict.abortIfUnfinished(history(), this::dump);
      stopWorkloads();
    } finally {
      if (elections != null) {
        elections.close();
      }
      if (cluster != null) {
        cluster.close();
      }
    }
  }
}
