package dev.nacre.bench.peer;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;

/**
 * The whole load on one system: a warm-up round (the same as a measured round, unrecorded), then
 * the measured rounds, each: ephemeral registrations (removed again unmeasured), persistent
 * registrations, their deregistrations, queries for a fixed time; optionally the sustained series.
 * The warm-up is a whole round so that every system is measured on code its JIT has compiled and
 * on services that exist already: ZooKeeper's parent nodes are created before the rounds, while a
 * Nacos service is created by its first registration (a quarter-round warm-up left three quarters
 * of those creations, and the JIT's work, in the first measured round).
 */
final class SystemRun {
  /** The sizes of a run; see PeerBench's options. */
  record Plan(int ephemeral, int persistent, Duration querying, int rounds, boolean sustained,
      Duration sustainedWarmup, Duration sustainedMeasured) {
  }

  private static final Duration SERIES_LIMIT = Duration.ofMinutes(3);
  private static final long MAX_OPS_PER_CLIENT = 2_000_000;
  private final String system;
  private final LoadRunner<RegistryDriver> runner;
  private final Workload workload;
  private final Guard guard;
  private final Plan plan;
  private final Path out;

  SystemRun(String system, LoadRunner<RegistryDriver> runner, Workload workload, Plan plan, Path out) {
    this.system = system;
    this.runner = runner;
    this.workload = workload;
    this.guard = new Guard(runner);
    this.plan = plan;
    this.out = out;
  }

  void run() throws Exception {
    List<List<Instance>> ephemeral = workload.registrations("e", plan.ephemeral(), true);
    List<List<Instance>> persistent = workload.registrations("p", plan.persistent(), false);
    List<List<Instance>> readSet = workload.querySet();
    RegistryDriver first = runner.driver(0);
    first.prepare(Workload.services(ephemeral), false);
    first.prepare(Workload.services(persistent), true);
    first.prepare(Workload.services(readSet), true);
    LoadRunner.Outcome<Instance> loaded = runner.counted("load read set", readSet, RegistryDriver::register, SERIES_LIMIT);
    requireAll("loading the read set", loaded);
    guard.check("read set", loaded.acknowledged(), true);

    for (int round = 0; round <= plan.rounds(); round++) {
      System.out.printf("== %s round %d%s, %s%n", system, round, round == 0 ? " (warm-up, not recorded)" : "",
          java.time.LocalTime.now().withNano(0));
      writeSeries(round, "ephemeral-register", ephemeral);
      writeSeries(round, "persistent-register", persistent);
      record(round, "query", queries(plan.querying()));
    }
    if (plan.sustained()) {
      sustained();
    }
  }

  /** Registrations, the guard, then deregistrations (recorded for persistent ones) and the guard. */
  private void writeSeries(int round, String series, List<List<Instance>> work) throws Exception {
    LoadRunner.Outcome<Instance> added = runner.counted(series, work, RegistryDriver::register, SERIES_LIMIT);
    record(round, series, added);
    guard.check(series, added.acknowledged(), true);
    boolean persistent = series.startsWith("persistent");
    String removal = persistent ? "persistent-deregister" : "ephemeral-cleanup";
    List<List<Instance>> toRemove = Workload.only(work, new HashSet<>(added.acknowledged()));
    LoadRunner.Outcome<Instance> removed = runner.counted(removal, toRemove, RegistryDriver::deregister, SERIES_LIMIT);
    if (persistent) {
      record(round, removal, removed);
    } else {
      requireAll("removing the ephemeral instances", removed);
    }
    guard.check(removal, removed.acknowledged(), false);
  }

  /** Queries of the read set; an answer without exactly the read set's instances is an error. */
  private LoadRunner.Outcome<Void> queries(Duration querying) throws InterruptedException {
    return runner.timed("query", Duration.ZERO, querying, MAX_OPS_PER_CLIENT, this::queryOnce);
  }

  private void queryOnce(RegistryDriver driver, int client, long n) throws Exception {
    String service = workload.queryService(client, n);
    int listed = driver.query(service).size();
    if (listed != workload.perQueryService()) {
      throw new IllegalStateException(service + " listed " + listed + " instances, not " + workload.perQueryService());
    }
  }

  /** As many operations as the system takes, after a warm-up: persistent registrations, then queries. */
  private void sustained() throws Exception {
    System.out.printf("== %s sustained (%d s warm-up, %d s measured)%n", system,
        plan.sustainedWarmup().toSeconds(), plan.sustainedMeasured().toSeconds());
    runner.driver(0).prepare(workload.sustainedServices(), true);
    record(1, "sustained-persistent-register", runner.timed("sustained-register", plan.sustainedWarmup(),
        plan.sustainedMeasured(), MAX_OPS_PER_CLIENT, (d, c, n) -> d.register(workload.sustained(c, n))));
    record(1, "sustained-query", runner.timed("sustained-query", plan.sustainedWarmup(),
        plan.sustainedMeasured(), MAX_OPS_PER_CLIENT, this::queryOnce));
  }

  private void record(int round, String series, LoadRunner.Outcome<?> outcome) throws java.io.IOException {
    SeriesRow row = SeriesRow.of(system, series, round, outcome);
    System.out.println("  " + row);
    if (round > 0) {
      row.appendTo(out);
    }
  }

  private static void requireAll(String what, LoadRunner.Outcome<?> o) {
    if (o.errors() > 0) {
      throw new IllegalStateException(what + ": " + o.errors() + " operations failed (see above); the run cannot go on");
    }
  }
}
