package dev.nacre.bench.peer;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The correctness guard: after a write series, every acknowledged write must show in a query
 * (within a bound, since replicas and Distro batches lag a little). A benchmark that silently
 * drops writes would be measuring nothing, so a miss fails the whole run.
 */
final class Guard {
  private static final Duration LIMIT = Duration.ofSeconds(20);
  private final LoadRunner<RegistryDriver> runner;

  Guard(LoadRunner<RegistryDriver> runner) {
    this.runner = runner;
  }

  /** Every instance listed, when {@code present}; none of them listed otherwise. */
  void check(String label, Collection<Instance> instances, boolean present) throws Exception {
    Map<String, Set<String>> byService = new HashMap<>();
    for (Instance i : instances) {
      byService.computeIfAbsent(i.service(), s -> new HashSet<>()).add(i.address());
    }
    long deadline = System.nanoTime() + LIMIT.toNanos();
    int n = 0;
    for (Map.Entry<String, Set<String>> e : byService.entrySet()) {
      RegistryDriver driver = runner.driver(n++ % runner.clients());
      while (true) {
        Set<String> wrong = wrong(driver.query(e.getKey()), e.getValue(), present);
        if (wrong.isEmpty()) {
          break;
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(String.format(
              "%s: service %s still %s %d of %d acknowledged instances %ds after the series (e.g. %s): "
                  + "the system lost acknowledged writes, so this run's figures are void",
              label, e.getKey(), present ? "misses" : "lists deleted", wrong.size(), e.getValue().size(),
              LIMIT.toSeconds(), wrong.iterator().next()));
        }
        Thread.sleep(50); // the next look at a lagging replica
      }
    }
  }

  private static Set<String> wrong(Set<String> listed, Set<String> expected, boolean present) {
    Set<String> wrong = new HashSet<>(expected);
    if (present) {
      wrong.removeAll(listed);
    } else {
      wrong.retainAll(listed);
    }
    return wrong;
  }
}
