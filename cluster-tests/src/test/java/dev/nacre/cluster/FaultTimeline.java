package dev.nacre.cluster;

import dev.nacre.cluster.check.CheckResult;
import dev.nacre.cluster.check.History;
import dev.nacre.cluster.check.LivenessChecker;
import dev.nacre.cluster.check.Mode;
import dev.nacre.cluster.check.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * When the faults of one {@link Scenario} happened, as the liveness checker needs them: node
 * outages (stopped, wiped, paused or cut off) and CP disruptions. The scenario does the faults;
 * this only keeps their times, in {@link System#nanoTime()}.
 */
final class FaultTimeline {
  /** How long a CP write in flight may take to be answered (the CP timeout and some slack). */
  private static final Duration CP_WRITE_ANSWERED = Duration.ofSeconds(4);

  private final LocalCluster cluster;
  private final List<LivenessChecker.CpDisruption> disruptions = new ArrayList<>();
  private final List<LivenessChecker.NodeOutage> outages = new ArrayList<>();
  /** Nodes down now, since when: outages still open. */
  private final Map<Integer, Long> downSince = new TreeMap<>();

  FaultTimeline(LocalCluster cluster) {
    this.cluster = cluster;
  }

  /** Node i goes down now: an outage until {@link #up}. */
  void down(int i) {
    downSince.put(i, System.nanoTime());
  }

  /** Like {@link #down}, but a node down already keeps the start of its outage. */
  void downUnlessDown(int i) {
    downSince.putIfAbsent(i, System.nanoTime());
  }

  /** The nodes {@code indexes} are up again: their outages end now. */
  void up(Collection<Integer> indexes) {
    long now = System.nanoTime();
    for (int i : indexes) {
      Long from = downSince.remove(i);
      if (from != null) {
        outages.add(new LivenessChecker.NodeOutage(cluster.address(i), from, now));
      }
    }
  }

  /** Node i was down (paused, or unreachable for clients) over an interval. */
  void outage(int i, long fromNanos, long toNanos) {
    outages.add(new LivenessChecker.NodeOutage(cluster.address(i), fromNanos, toNanos));
  }

  /** A CP disruption starts now, to be recovered from on {@code majority}; returns the time recorded. */
  long disruption(String label, Collection<Integer> majority) {
    long now = System.nanoTime();
    disruptions.add(new LivenessChecker.CpDisruption(label, now, cluster.addresses(majority)));
    return now;
  }

  /** The liveness check over {@code history}; a node still down counts as down until now. */
  CheckResult checkLiveness(Duration bound, History history) {
    Map<Integer, Long> open = new TreeMap<>(downSince);
    List<LivenessChecker.NodeOutage> all = new ArrayList<>(outages);
    long now = System.nanoTime();
    open.forEach((i, from) -> all.add(new LivenessChecker.NodeOutage(cluster.address(i), from, now)));
    return new LivenessChecker(bound).check(history, disruptions, all);
  }

  /**
   * Returns once each disruption has an acknowledged CP write on its majority, or its bound (plus a
   * CP write's timeout, so that writes in flight at the bound are answered) has passed.
   */
  void awaitEvidence(Duration bound, Supplier<History> history) {
    long deadline = disruptions.stream().mapToLong(LivenessChecker.CpDisruption::atNanos).max().orElse(0)
        + bound.toNanos() + CP_WRITE_ANSWERED.toNanos();
    long waitMs = Math.max(0, (deadline - System.nanoTime()) / 1_000_000);
    org.awaitility.Awaitility.await().atMost(Duration.ofMillis(waitMs + 1_000)).pollInterval(Duration.ofMillis(50))
        .until(() -> System.nanoTime() >= deadline
            || disruptions.stream().allMatch(d -> recovered(d, history.get())));
  }

  private static boolean recovered(LivenessChecker.CpDisruption d, History history) {
    return history.ops().stream().anyMatch(op -> op.mode() == Mode.CP && op.kind().isWrite()
        && op.outcome() == Outcome.OK && op.invokeNanos() >= d.atNanos() && d.majorityNodes().contains(op.node()));
  }
}
