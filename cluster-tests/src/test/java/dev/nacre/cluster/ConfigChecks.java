package dev.nacre.cluster;

import dev.nacre.cluster.check.CheckResult;
import dev.nacre.cluster.check.DurabilityChecker;
import dev.nacre.cluster.check.History;
import dev.nacre.cluster.check.InstanceKey;
import dev.nacre.cluster.check.OpKind;
import dev.nacre.cluster.check.Outcome;
import dev.nacre.cluster.check.Verdict;
import dev.nacre.config.api.ConfigItem;
import dev.nacre.config.api.ConfigOperations;
import dev.nacre.config.api.Revision;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The configuration checks of a {@link Scenario}, on top of the CP checkers: durability of what
 * each member serves after the faults, monotonic reads per member, and convergence of content and
 * history on every member. Each records its check in the scenario.
 */
final class ConfigChecks {
  private static final int SHOWN = 10;

  private ConfigChecks() {}

  /**
   * Every member's formal content of {@code keys}, read after a read barrier (so it has caught up),
   * is explained by the possible last publish or remove of each key ({@link DurabilityChecker}):
   * nothing acknowledged lost, nothing removed come back. A member that never answers fails it.
   */
  static CheckResult durable(Scenario s, Collection<InstanceKey> keys, Collection<Integer> nodes, Duration catchUp) {
    Map<String, Map<InstanceKey, String>> finals = new TreeMap<>();
    List<String> silent = new ArrayList<>();
    for (int i : nodes) {
      Optional<Map<InstanceKey, String>> state = Polling.poll(catchUp, () -> caughtUpState(s, i, keys));
      if (state.isPresent()) {
        finals.put(s.cluster().address(i), state.get());
      } else {
        silent.add(s.cluster().address(i));
      }
    }
    CheckResult r = new DurabilityChecker().check(s.history(), finals);
    if (!silent.isEmpty()) {
      r = new CheckResult(Verdict.fail("no read barrier answered within " + catchUp.toMillis() + " ms by " + silent
          + "; " + r.verdict().line()), r.details());
    }
    s.check("durability", r.verdict(), String.join("\n", r.details()));
    return r;
  }

  /** Member i's formal contents of {@code keys} after a read barrier; empty if it does not answer. */
  private static Optional<Map<InstanceKey, String>> caughtUpState(Scenario s, int i, Collection<InstanceKey> keys) {
    try {
      ConfigOperations ops = s.cluster().node(i).configs();
      ops.readBarrier().get(3, TimeUnit.SECONDS);
      Map<InstanceKey, String> out = new TreeMap<>();
      for (InstanceKey k : keys) {
        ops.formal(ConfigWorkloadClient.configKey(k)).ifPresent(item -> out.put(k, item.content()));
      }
      return Optional.of(out);
    } catch (Exception notYet) {
      return Optional.empty();
    }
  }

  /**
   * Reads never go backwards on a member: of two reads of one key on one member (same disk), the
   * one invoked after the other completed serves a revision at least as high. A read of an absent
   * key after a present one counts too, unless the history has a remove of that key.
   */
  static CheckResult monotonicReads(Scenario s, List<ConfigWorkloadClient.Served> served) {
    CheckResult r = monotonic(s.history(), served);
    s.check("monotonic-reads", r.verdict(), String.join("\n", r.details()));
    return r;
  }

  /** {@link #monotonicReads} on a history (for the removes) and the reads served. */
  static CheckResult monotonic(History h, List<ConfigWorkloadClient.Served> served) {
    Set<InstanceKey> removed = h.ops().stream()
        .filter(o -> o.kind() == OpKind.DEREGISTER && o.outcome() != Outcome.FAIL)
        .map(o -> o.key()).collect(Collectors.toSet());
    Map<String, List<ConfigWorkloadClient.Served>> byMember = new TreeMap<>();
    for (ConfigWorkloadClient.Served r : served) {
      byMember.computeIfAbsent(r.node() + "#" + r.epoch() + " " + r.key(), k -> new ArrayList<>()).add(r);
    }
    List<String> bad = new ArrayList<>();
    long origin = h.originNanos();
    for (List<ConfigWorkloadClient.Served> reads : byMember.values()) {
      reads.sort(Comparator.comparingLong(ConfigWorkloadClient.Served::invokeNanos));
      PriorityQueue<ConfigWorkloadClient.Served> ended =
          new PriorityQueue<>(Comparator.comparingLong(ConfigWorkloadClient.Served::completeNanos));
      ended.addAll(reads);
      ConfigWorkloadClient.Served highest = null;
      for (ConfigWorkloadClient.Served b : reads) {
        while (!ended.isEmpty() && ended.peek().completeNanos() < b.invokeNanos()) {
          ConfigWorkloadClient.Served a = ended.poll();
          if (highest == null || a.revision() > highest.revision()) {
            highest = a;
          }
        }
        boolean absentAllowed = b.revision() == 0 && removed.contains(b.key());
        if (highest != null && b.revision() < highest.revision() && !absentAllowed) {
          bad.add(b.node() + " served " + b.key() + " at revision " + b.revision() + " ("
              + Objects.requireNonNullElse(b.content(), "<absent>") + ") at +" + (b.invokeNanos() - origin) / 1_000
              + "us after serving revision " + highest.revision() + " (" + highest.content() + ") at +"
              + (highest.invokeNanos() - origin) / 1_000 + "us" + (b.epoch() > 0 ? " (disk lost " + b.epoch() + "x)" : ""));
        }
      }
    }
    CheckResult r = bad.isEmpty()
        ? new CheckResult(Verdict.pass(served.size() + " reads on " + byMember.size() + " member-keys, none went back"),
            List.of())
        : new CheckResult(Verdict.fail(bad.size() + " of " + served.size() + " reads went back on their member; first: "
            + bad.get(0)), bad.subList(0, Math.min(SHOWN, bad.size())));
    return r;
  }

  /**
   * After the heal, every member converges (within {@code atMost}) to the same formal content
   * (md5 and revision) and the same history (revision ids, operations, md5s) of every key.
   */
  static CheckResult converged(Scenario s, Collection<InstanceKey> keys, Duration atMost) {
    long start = System.nanoTime();
    String[] last = {""};
    boolean ok = Polling.poll(atMost, () -> {
      Map<String, String> views = new TreeMap<>();
      for (int i : s.all()) {
        Optional<String> v = view(s, i, keys);
        if (v.isEmpty()) {
          return Optional.<Boolean>empty();
        }
        views.put(s.cluster().address(i), v.get());
      }
      if (views.values().stream().distinct().count() == 1) {
        return Optional.of(true);
      }
      last[0] = views.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue())
          .collect(Collectors.joining("\n"));
      return Optional.<Boolean>empty();
    }).isPresent();
    long ms = (System.nanoTime() - start) / 1_000_000;
    CheckResult r = ok
        ? new CheckResult(Verdict.pass("content and history of " + keys.size() + " keys equal on " + s.size()
            + " members after " + ms + " ms"), List.of())
        : new CheckResult(Verdict.fail("members still differ after " + ms + " ms"), List.of(last[0]));
    s.check("convergence", r.verdict(), String.join("\n", r.details()));
    return r;
  }

  /** Member i's formal content and full history of {@code keys}, as one comparable string; empty if it does not answer. */
  private static Optional<String> view(Scenario s, int i, Collection<InstanceKey> keys) {
    try {
      ConfigOperations ops = s.cluster().node(i).configs();
      ops.readBarrier().get(3, TimeUnit.SECONDS);
      StringBuilder b = new StringBuilder();
      for (InstanceKey k : keys) {
        var key = ConfigWorkloadClient.configKey(k);
        b.append(k.instance()).append('=').append(ops.formal(key).map(ConfigChecks::item).orElse("<absent>"))
            .append(" history[");
        List<Revision> revisions = new ArrayList<>();
        for (int page = 1; ; page++) {
          List<Revision> items = ops.history(key, page, 100).pageItems();
          revisions.addAll(items);
          if (items.size() < 100) {
            break;
          }
        }
        b.append(revisions.stream().map(r -> r.id() + r.operation() + ":" + abbrev(r.md5()))
            .collect(Collectors.joining(" "))).append("] ");
      }
      return Optional.of(b.toString());
    } catch (Exception notYet) {
      return Optional.empty();
    }
  }

  private static String item(ConfigItem i) {
    return abbrev(i.md5()) + "@" + i.revision();
  }

  private static String abbrev(String md5) {
    return md5.length() > 6 ? md5.substring(0, 6) : md5;
  }
}
