package dev.nacre.cluster;

import dev.nacre.cluster.check.ConvergenceChecker;
import dev.nacre.cluster.check.InstanceKey;
import dev.nacre.cluster.check.Verdict;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.ServiceKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;

/**
 * The AP convergence check of a {@link Scenario} (the framework has none yet): samples the
 * ephemeral view (instance to value) of each node every 20 ms, in-process so that a node cut off
 * from clients is still seen, until the views have been equal and held every beating instance for
 * {@link #STABLE} or the bound has passed, then runs the {@link ConvergenceChecker} and records its
 * verdict as a check of the scenario, with the time it took as a note.
 */
final class ApConvergence {
  /** How long equal views must stay equal before sampling stops. */
  static final Duration STABLE = Duration.ofSeconds(1);
  private static final Duration INTERVAL = Duration.ofMillis(20);

  private ApConvergence() {}

  /**
   * @param check the check's name in the verdict line
   * @param nodes the running nodes that must converge
   * @param healNanos when the last fault ended (System.nanoTime)
   * @param bound how long after the heal the views may take to become equal
   * @param beating instances whose clients keep beating; each must be in every final view
   */
  static ConvergenceChecker.Result check(Scenario s, String check, Collection<Integer> nodes,
      Collection<String> services, long healNanos, Duration bound, Set<InstanceKey> beating) {
    return check(s, check, nodes, services, healNanos, bound, beating, Duration.ZERO, false);
  }

  /**
   * As above, sampling for at least {@code atLeast} after the heal; with {@code neverMissing}, also
   * a check named {@code <check>-kept} that fails if a beating instance was absent from any node in
   * any sample after the heal (a blip that consumers would see).
   */
  static ConvergenceChecker.Result check(Scenario s, String check, Collection<Integer> nodes,
      Collection<String> services, long healNanos, Duration bound, Set<InstanceKey> beating, Duration atLeast,
      boolean neverMissing) {
    List<ConvergenceChecker.Sample> samples = new ArrayList<>();
    long deadline = healNanos + bound.toNanos() + STABLE.toNanos();
    long minEnd = healNanos + atLeast.toNanos();
    Map<String, Set<InstanceKey>> missing = new TreeMap<>();
    long equalSince = -1;
    while (true) {
      long now = System.nanoTime();
      Map<String, Map<InstanceKey, String>> views = new TreeMap<>();
      for (int i : nodes) {
        Map<InstanceKey, String> v = view(s.cluster(), i, services);
        views.put(s.cluster().address(i), v);
        samples.add(new ConvergenceChecker.Sample(s.cluster().address(i), now, v));
        for (InstanceKey k : beating) {
          if (!v.containsKey(k)) {
            missing.computeIfAbsent(s.cluster().address(i), x -> new java.util.TreeSet<>()).add(k);
          }
        }
      }
      boolean equal = views.values().stream().distinct().count() == 1
          && views.values().iterator().next().keySet().containsAll(beating);
      equalSince = equal ? (equalSince < 0 ? now : equalSince) : -1;
      boolean stable = equalSince >= 0 && now - equalSince >= STABLE.toNanos() && now - minEnd >= 0;
      if (stable || now - deadline > 0 && now - minEnd >= 0) {
        break;
      }
      LockSupport.parkNanos(INTERVAL.toNanos());
      if (Thread.interrupted()) {
        throw new IllegalStateException("interrupted while sampling ephemeral views");
      }
    }
    ConvergenceChecker.Result r = new ConvergenceChecker(bound)
        .check(healNanos, s.cluster().addresses(nodes), samples, beating);
    s.check(check, r.verdict(), r.report());
    r.afterHeal().ifPresent(d -> s.note("%s: views of %d nodes equal %d ms after the heal", check, nodes.size(), d.toMillis()));
    if (neverMissing) {
      expectNoneMissing(s, check + "-kept", missing, beating.size() + " beating instances on " + nodes.size()
          + " nodes in every one of " + samples.size() + " samples");
    }
    return r;
  }

  /** Node i's ephemeral instances of the services, in-process ({@code ip:port} to the value {@code v}). */
  static Map<InstanceKey, String> view(LocalCluster c, int i, Collection<String> services) {
    Map<InstanceKey, String> out = new TreeMap<>();
    for (String service : services) {
      List<Instance> all = c.node(i).naming().allInstances(
          new ServiceKey(ServiceKey.DEFAULT_NAMESPACE, ServiceKey.DEFAULT_GROUP, service));
      for (Instance in : all) {
        if (in.ephemeral()) {
          out.put(InstanceKey.of(service, in.key().ip() + ":" + in.key().port()),
              in.metadata().getOrDefault(WorkloadClient.VALUE_KEY, ""));
        }
      }
    }
    return out;
  }

  /** A check that passes iff nothing in {@code missing} (node to instances absent there). */
  static void expectNoneMissing(Scenario s, String check, Map<String, Set<InstanceKey>> missing, String passReason) {
    Map<String, Set<InstanceKey>> bad = new HashMap<>(missing);
    bad.values().removeIf(Set::isEmpty);
    s.check(check, bad.isEmpty() ? Verdict.pass(passReason) : Verdict.fail("missing " + new TreeMap<>(bad)), "");
  }
}
