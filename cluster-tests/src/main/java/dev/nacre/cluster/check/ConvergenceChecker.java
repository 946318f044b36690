package dev.nacre.cluster.check;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Checks AP convergence after faults heal: the ephemeral views (instance to value) sampled from
 * each live node must all become equal within a bound after the heal, be equal in the last
 * samples, and contain every instance whose client kept beating.
 *
 * <p>Only samples taken at or after the heal count. Views are compared as each node's latest
 * sample at each sampling instant, so sample every node often (well inside the bound).
 * INCONCLUSIVE when a node has no sample after the heal, or the samples end before the bound
 * without the views being equal.
 *
 * <p>Stateless and thread-safe.
 */
public final class ConvergenceChecker {
    private static final int DIFFS_SHOWN = 5;

    /** One node's ephemeral view at one moment (monotonic nanos, same clock as the heal time). */
    public record Sample(String node, long atNanos, Map<InstanceKey, String> view) {
        public Sample {
            Objects.requireNonNull(node, "node");
            view = Map.copyOf(view);
        }
    }

    /**
     * @param firstEqualNanos first moment after the heal when all latest views were equal
     * @param equalAtEnd whether the last samples of all nodes are equal
     */
    public record Result(Verdict verdict, OptionalLong firstEqualNanos, Optional<Duration> afterHeal,
                         boolean equalAtEnd, List<String> details) {
        public Result {
            details = List.copyOf(details);
        }

        public String report() {
            return new CheckResult(verdict, details).report();
        }

        @Override
        public String toString() {
            return report();
        }
    }

    private final Duration bound;

    /** {@code bound}: how long after the heal the views may take to become equal. */
    public ConvergenceChecker(Duration bound) {
        this.bound = Objects.requireNonNull(bound, "bound");
    }

    /**
     * @param healNanos when the last fault healed
     * @param nodes the live nodes that must converge; samples of other nodes are ignored
     * @param beating instances whose clients kept beating throughout; each must be in every final view
     */
    public Result check(long healNanos, Set<String> nodes, List<Sample> samples, Set<InstanceKey> beating) {
        List<Sample> after = samples.stream()
                .filter(s -> s.atNanos() >= healNanos && nodes.contains(s.node()))
                .sorted(Comparator.comparingLong(Sample::atNanos))
                .toList();
        Set<String> silent = new TreeSet<>(nodes);
        after.forEach(s -> silent.remove(s.node()));
        if (nodes.isEmpty() || !silent.isEmpty()) {
            return new Result(Verdict.inconclusive("no sample after the heal from " + (nodes.isEmpty() ? "any node"
                    : silent)), OptionalLong.empty(), Optional.empty(), false, List.of());
        }
        long deadline = healNanos + bound.toNanos();
        Map<String, Sample> latest = new HashMap<>();
        OptionalLong firstEqual = OptionalLong.empty();
        Map<String, Sample> atDeadline = null;
        List<String> details = new ArrayList<>();
        boolean equal = false;
        for (Sample s : after) {
            if (atDeadline == null && s.atNanos() > deadline && latest.size() == nodes.size()) {
                atDeadline = new TreeMap<>(latest);
            }
            latest.put(s.node(), s);
            boolean nowEqual = latest.size() == nodes.size() && allEqual(latest);
            if (nowEqual && firstEqual.isEmpty()) {
                firstEqual = OptionalLong.of(s.atNanos());
            }
            if (equal && !nowEqual) {
                details.add("views diverged again at +" + ms(s.atNanos() - healNanos) + " (" + s.node() + ")");
            }
            equal = nowEqual;
        }
        Map<String, Sample> last = new TreeMap<>(latest);
        List<String> missing = new ArrayList<>();
        for (Sample s : last.values()) {
            for (InstanceKey k : new TreeSet<>(beating)) {
                if (!s.view().containsKey(k)) {
                    missing.add(k + " missing on " + s.node() + " at +" + ms(s.atNanos() - healNanos));
                }
            }
        }
        Optional<Duration> took = firstEqual.isPresent()
                ? Optional.of(Duration.ofNanos(firstEqual.getAsLong() - healNanos)) : Optional.empty();
        long lastAt = after.get(after.size() - 1).atNanos();
        if (!missing.isEmpty()) {
            details.addAll(0, missing.subList(0, Math.min(missing.size(), DIFFS_SHOWN)));
            return new Result(Verdict.fail(missing.size() + " beating instance(s) missing from final views, first: "
                    + missing.get(0)), firstEqual, took, equal, details);
        }
        if (firstEqual.isEmpty() || firstEqual.getAsLong() > deadline) {
            if (firstEqual.isEmpty() && lastAt <= deadline) {
                return new Result(Verdict.inconclusive("views not equal yet, but samples end at +" + ms(lastAt - healNanos)
                        + ", inside the bound " + ms(bound.toNanos())), firstEqual, took, equal, details);
            }
            details.addAll(0, diffs(atDeadline == null ? last : atDeadline, healNanos,
                    atDeadline == null ? "in the last samples" : "at the bound"));
            if (!equal && atDeadline != null) {
                details.addAll(diffs(last, healNanos, "in the last samples"));
            }
            return new Result(Verdict.fail("views not equal within " + ms(bound.toNanos()) + " after the heal"
                    + took.map(d -> " (first equal at +" + ms(d.toNanos()) + ")").orElse(" (never equal)")),
                    firstEqual, took, equal, details);
        }
        if (!equal) {
            details.addAll(0, diffs(last, healNanos, "in the last samples"));
            return new Result(Verdict.fail("views were equal at +" + ms(took.orElseThrow().toNanos())
                    + " but differ in the last samples"), firstEqual, took, false, details);
        }
        int size = last.values().iterator().next().view().size();
        return new Result(Verdict.pass(nodes.size() + " nodes converged " + ms(took.orElseThrow().toNanos())
                + " after the heal (bound " + ms(bound.toNanos()) + "), " + size + " instances, "
                + beating.size() + " beating present everywhere"), firstEqual, took, true, details);
    }

    private static boolean allEqual(Map<String, Sample> latest) {
        Map<InstanceKey, String> first = null;
        for (Sample s : latest.values()) {
            if (first == null) {
                first = s.view();
            } else if (!first.equals(s.view())) {
                return false;
            }
        }
        return true;
    }

    /** How each node's view differs from the union of all views (most common value per instance). */
    private static List<String> diffs(Map<String, Sample> views, long healNanos, String when) {
        Map<InstanceKey, Map<String, Integer>> votes = new TreeMap<>();
        views.values().forEach(s -> s.view().forEach((k, v) -> votes.computeIfAbsent(k, x -> new HashMap<>())
                .merge(v, 1, Integer::sum)));
        List<String> out = new ArrayList<>();
        for (Sample s : new TreeMap<>(views).values()) {
            List<String> d = new ArrayList<>();
            votes.forEach((k, vs) -> {
                String common = vs.entrySet().stream().max(Map.Entry.<String, Integer>comparingByValue()
                        .thenComparing(Map.Entry.comparingByKey())).orElseThrow().getKey();
                String mine = s.view().get(k);
                if (mine == null) {
                    d.add("-" + k);
                } else if (!mine.equals(common)) {
                    d.add(k + "=" + mine + " (others: " + common + ")");
                }
            });
            if (!d.isEmpty()) {
                out.add(when + ", " + s.node() + " (+" + ms(s.atNanos() - healNanos) + ") differs: "
                        + String.join(", ", d.subList(0, Math.min(DIFFS_SHOWN, d.size())))
                        + (d.size() > DIFFS_SHOWN ? " ... (" + d.size() + " in all)" : ""));
            }
        }
        return out;
    }

    static String ms(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.1f ms", nanos / 1e6);
    }
}
