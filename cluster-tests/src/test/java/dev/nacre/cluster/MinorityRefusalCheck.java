package dev.nacre.cluster;

import dev.nacre.cluster.check.CheckResult;
import dev.nacre.cluster.check.History;
import dev.nacre.cluster.check.Mode;
import dev.nacre.cluster.check.Op;
import dev.nacre.cluster.check.Outcome;
import dev.nacre.cluster.check.Verdict;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A minority never acknowledges a CP write, and says so in time: every CP write sent to one of
 * the minority's nodes that was invoked in {@code [from, to]} and completed before {@code to}
 * (the heal) is not OK and completed within the bound; at least one such write exists
 * (INCONCLUSIVE otherwise). Writes still running at the heal may legitimately succeed after it.
 */
final class MinorityRefusalCheck {
  private MinorityRefusalCheck() {}

  static CheckResult check(History h, Set<String> minority, long fromNanos, long toNanos, Duration bound) {
    List<Op> writes = h.ops().stream()
        .filter(o -> o.mode() == Mode.CP && o.kind().isWrite() && minority.contains(o.node())
            && o.invokeNanos() >= fromNanos && o.invokeNanos() <= toNanos && o.completeNanos() <= toNanos)
        .toList();
    List<String> bad = new ArrayList<>();
    long slowest = 0;
    for (Op o : writes) {
      long took = o.completeNanos() - o.invokeNanos();
      slowest = Math.max(slowest, took);
      if (o.outcome() == Outcome.OK) {
        bad.add("acknowledged by the minority: " + o.describe(h.originNanos()));
      } else if (took > bound.toNanos()) {
        bad.add("refused after " + took / 1_000_000 + " ms (bound " + bound.toMillis() + " ms): "
            + o.describe(h.originNanos()));
      }
    }
    if (!bad.isEmpty()) {
      return new CheckResult(Verdict.fail(bad.size() + " of " + writes.size() + " CP writes to the minority "
          + minority + ": " + bad.get(0)), bad);
    }
    if (writes.isEmpty()) {
      return new CheckResult(Verdict.inconclusive("no CP write was sent to the minority " + minority
          + " and answered during the fault"), List.of());
    }
    return new CheckResult(Verdict.pass(writes.size() + " CP writes to the minority " + minority
        + " all refused, slowest in " + slowest / 1_000_000 + " ms"), List.of());
  }
}
