package dev.nacre.cluster;

import dev.nacre.cluster.check.History;
import dev.nacre.cluster.check.Outcome;
import dev.nacre.cluster.check.Verdict;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * What one {@link Scenario} found: its checks, its notes and the ONE verdict line that
 * {@code verdicts.log} records for it (see {@link Scenario} for the line's form). Kept apart from
 * Scenario, which runs the cluster and the faults: this part only records and reports, and holds
 * no cluster (the dump comes from the scenario when a failure needs it).
 */
final class ScenarioVerdict {
  /** One named check and its result. */
  record Check(String name, Verdict verdict, String report) {}

  private final String name;
  /** Members at the start (the verdict line's nodes=); the cluster may hold spare nodes besides. */
  private final int startSize;
  private final long seed;
  private final long startNanos;
  private final VerdictLog log;
  private final List<Check> checks = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  private boolean finished;

  /** Records the start in {@code started.log} and prints how to replay the scenario. */
  ScenarioVerdict(String name, int startSize, long seed, long startNanos) {
    this.name = name;
    this.startSize = startSize;
    this.seed = seed;
    this.startNanos = startNanos;
    this.log = new VerdictLog(Path.of(System.getProperty(Scenario.RESULTS, "target/fault-suite")));
    log.started(name, startSize, seed);
    System.out.printf("SCENARIO %s starting: nodes=%d seed=%d (replay with -D%s=%d -D%s=%d)%n", name, startSize,
        seed, Scenario.SEED, seed, Scenario.NODES, startSize);
  }

  void check(String checkName, Verdict verdict, String report) {
    checks.add(new Check(checkName, verdict, report));
  }

  /** A line for the report (printed with the verdict, not part of it). */
  void note(String s) {
    notes.add(s);
    System.out.println("  " + name + ": " + s);
  }

  /**
   * Prints and records the verdict line, and fails the test with the reports, {@code dump} (the
   * cluster's state) and the seed unless every check passed.
   */
  void finish(History history, Supplier<String> dump) {
    if (checks.isEmpty()) {
      check("checks", Verdict.fail("the scenario ran no check"), "");
    }
    boolean failed = checks.stream().anyMatch(c -> c.verdict().status() == Verdict.Status.FAIL);
    boolean undecided = checks.stream().anyMatch(c -> c.verdict().status() == Verdict.Status.INCONCLUSIVE);
    String status = failed ? "FAIL" : undecided ? "INCONCLUSIVE" : "PASS";
    String results = checks.stream().map(c -> c.name() + "=" + switch (c.verdict().status()) {
      case PASS -> "ok";
      case FAIL -> "FAIL";
      case INCONCLUSIVE -> "inconclusive";
    }).collect(Collectors.joining(" "));
    String line = line(status, results, history);
    StringBuilder report = new StringBuilder(line).append('\n');
    for (Check c : checks) {
      report.append("  ").append(c.name()).append(": ")
          .append((c.report().isEmpty() ? c.verdict().line() : c.report()).replace("\n", "\n    ")).append('\n');
    }
    notes.forEach(n -> report.append("  note: ").append(n).append('\n'));
    finished = true;
    log.verdict(line);
    log.report(report.toString());
    System.out.print(report);
    if (!status.equals("PASS")) {
      String state = dump.get();
      log.failure(name, seed, report + "\n" + state + "\nhistory:\n" + history.dump());
      throw new AssertionError(report + "\ncluster state at the verdict:\n" + state + "replay: -D" + Scenario.SEED
          + "=" + seed + " -D" + Scenario.NODES + "=" + startSize + " (history in " + log.failureFile(name, seed)
          + ")");
    }
  }

  /** The cluster did not start: a FAIL line, so that the suite counts the scenario. */
  void clusterDidNotStart(History history) {
    log.verdict(line("FAIL", "aborted=cluster-did-not-start", history));
    finished = true;
  }

  /**
   * A scenario that ends without {@link #finish} (an exception) gets a FAIL line and a failure file,
   * so that the suite never loses a scenario silently; nothing if it has a verdict already.
   */
  void abortIfUnfinished(History history, Supplier<String> dump) {
    if (finished) {
      return;
    }
    finished = true;
    String line = line("FAIL", "aborted=no-verdict", history);
    log.verdict(line);
    System.out.println(line);
    log.failure(name, seed, line + "\n" + dump.get() + "\nhistory:\n" + history.dump());
  }

  private String line(String status, String results, History h) {
    long unknown = h.ops().stream().filter(o -> o.outcome() == Outcome.UNKNOWN).count();
    double secs = (System.nanoTime() - startNanos) / 1e9;
    return String.format(Locale.ROOT, "SCENARIO %s nodes=%d seed=%d %s ops=%d unknown=%d %s %.1fs", name,
        startSize, seed, status, h.size(), unknown, results, secs).replace("  ", " ");
  }
}
