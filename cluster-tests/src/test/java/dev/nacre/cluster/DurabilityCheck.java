package dev.nacre.cluster;

import dev.nacre.cluster.check.CheckResult;
import dev.nacre.cluster.check.DurabilityChecker;
import dev.nacre.cluster.check.InstanceKey;
import dev.nacre.cluster.check.Verdict;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Durability on a running scenario's nodes: reads the persistent instances of the checked services
 * from each node with a linearizable read (so each has caught up with the log), retrying within
 * {@code catchUp}, and checks them against the acknowledged writes. A node that never answers
 * fails the check: its state is unknown, not empty.
 */
final class DurabilityCheck {
  private DurabilityCheck() {}

  static CheckResult check(Scenario s, Collection<String> services, Collection<Integer> nodes, Duration catchUp) {
    Map<String, Map<InstanceKey, String>> finals = new TreeMap<>();
    List<String> silent = new ArrayList<>();
    for (int i : nodes) {
      long start = System.nanoTime();
      Optional<Map<InstanceKey, String>> state = Polling.poll(catchUp, () -> s.client().persistentState(i, services));
      if (state.isPresent()) {
        finals.put(s.cluster().address(i), state.get());
        long ms = (System.nanoTime() - start) / 1_000_000;
        if (ms > 500) {
          s.note("node %d answered its final linearizable read after %d ms", i, ms);
        }
      } else {
        silent.add(s.cluster().address(i));
      }
    }
    // The history as it is now, after the reads: writes that ended meanwhile count.
    CheckResult r = new DurabilityChecker().check(s.history(), finals);
    if (!silent.isEmpty()) {
      r = new CheckResult(Verdict.fail("no linearizable read answered within " + catchUp.toMillis() + " ms by "
          + silent + "; " + r.verdict().line()), r.details());
    }
    return r;
  }
}
