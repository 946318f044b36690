package dev.nacre.cluster.check;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Checks that the cluster stayed available as promised under a fault timeline:
 * <ul>
 *   <li>CP: after each {@link CpDisruption} (e.g. the leader killed at t), the first OK CP write
 *       invoked at or after t on a node of the majority side completes within the recovery bound.
 *       FAIL if it is later or never comes while writes were tried up to the bound; INCONCLUSIVE if
 *       no CP write was sent to the majority side after t, or none that could show recovery (an
 *       OK, or a write still unanswered at the bound): definite refusals (4xx) show nothing.</li>
 *   <li>AP: every AP write sent to a node that was not down (killed or paused, see
 *       {@link NodeOutage}) at any time during the write's interval was OK. Partitions are not
 *       outages: AP writes must succeed on both sides.</li>
 * </ul>
 * For an UNKNOWN write the interval ends when the client gave up. Stateless and thread-safe.
 */
public final class LivenessChecker {
    private static final int SHOWN = 10;

    /** A fault that may interrupt CP writes, at {@code atNanos}; {@code majorityNodes} keep a quorum. */
    public record CpDisruption(String label, long atNanos, Set<String> majorityNodes) {
        public CpDisruption {
            Objects.requireNonNull(label, "label");
            majorityNodes = java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(majorityNodes));
        }
    }

    /** {@code node} was down (killed, paused) from {@code fromNanos} to {@code toNanos}, inclusive. */
    public record NodeOutage(String node, long fromNanos, long toNanos) {
        public NodeOutage {
            Objects.requireNonNull(node, "node");
            if (toNanos < fromNanos) {
                throw new IllegalArgumentException("outage of " + node + " ends before it starts");
            }
        }

        boolean overlaps(Op op) {
            return node.equals(op.node()) && fromNanos <= op.completeNanos() && op.invokeNanos() <= toNanos;
        }
    }

    private final Duration cpRecoveryBound;

    public LivenessChecker(Duration cpRecoveryBound) {
        this.cpRecoveryBound = Objects.requireNonNull(cpRecoveryBound, "cpRecoveryBound");
    }

    public CheckResult check(History history, List<CpDisruption> disruptions, List<NodeOutage> outages) {
        long origin = history.originNanos();
        List<String> failures = new ArrayList<>();
        List<String> undecided = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        long worstRecovery = -1;
        for (CpDisruption d : disruptions) {
            List<Op> attempts = history.ops().stream()
                    .filter(op -> op.mode() == Mode.CP && op.kind().isWrite() && op.invokeNanos() >= d.atNanos()
                            && d.majorityNodes().contains(op.node()))
                    .toList();
            Optional<Op> firstOk = attempts.stream().filter(op -> op.outcome() == Outcome.OK)
                    .min((a, b) -> Long.compare(a.completeNanos(), b.completeNanos()));
            if (attempts.isEmpty()) {
                undecided.add(d.label() + ": no CP write sent to " + d.majorityNodes() + " after it");
                continue;
            }
            long limit = d.atNanos() + cpRecoveryBound.toNanos();
            if (firstOk.isEmpty() || firstOk.get().completeNanos() > limit) {
                Map<Outcome, Integer> counts = new EnumMap<>(Outcome.class);
                attempts.stream().filter(op -> op.invokeNanos() <= limit)
                        .forEach(op -> counts.merge(op.outcome(), 1, Integer::sum));
                String sent = " (writes sent in the bound: " + counts
                        + (firstOk.map(op -> "; first OK after +"
                        + ConvergenceChecker.ms(op.completeNanos() - d.atNanos()) + ": " + op.describe(origin))
                        .orElse("; none OK at all")) + ")";
                // A definite refusal (FAIL: 4xx, or never sent) says nothing about recovery; only an OK
                // or a write still unanswered at the bound does. Without one, the run stopped too soon.
                boolean coversBound = attempts.stream().anyMatch(op -> op.outcome() != Outcome.FAIL
                        && (op.completeNanos() >= limit || op.invokeNanos() >= limit));
                if (!coversBound) {
                    long lastEnd = attempts.stream().mapToLong(Op::completeNanos).max().orElse(d.atNanos());
                    undecided.add(d.label() + ": too little evidence: no CP write to " + d.majorityNodes()
                            + " was acknowledged or still pending at the bound of "
                            + ConvergenceChecker.ms(cpRecoveryBound.toNanos()) + "; the last ended at +"
                            + ConvergenceChecker.ms(lastEnd - d.atNanos()) + sent
                            + ". Keep sending CP writes until the bound has passed");
                    continue;
                }
                failures.add(d.label() + ": no CP write acknowledged on " + d.majorityNodes() + " within "
                        + ConvergenceChecker.ms(cpRecoveryBound.toNanos()) + sent);
            } else {
                long took = firstOk.get().completeNanos() - d.atNanos();
                worstRecovery = Math.max(worstRecovery, took);
                notes.add(d.label() + ": first CP write acknowledged after +" + ConvergenceChecker.ms(took));
            }
        }
        List<Op> apWrites = history.ops().stream()
                .filter(op -> op.mode() == Mode.AP && op.kind().isWrite()
                        && outages.stream().noneMatch(o -> o.overlaps(op)))
                .toList();
        List<Op> apFailed = apWrites.stream().filter(op -> op.outcome() != Outcome.OK).toList();
        if (!apFailed.isEmpty()) {
            StringBuilder b = new StringBuilder(apFailed.size() + " of " + apWrites.size()
                    + " AP writes on live nodes not OK:");
            apFailed.stream().limit(SHOWN).forEach(op -> b.append("\n  ").append(op.describe(origin)));
            failures.add(b.toString());
        }
        List<String> details = new ArrayList<>(failures);
        details.addAll(undecided);
        details.addAll(notes);
        if (!failures.isEmpty()) {
            return new CheckResult(Verdict.fail(failures.get(0).lines().findFirst().orElseThrow()
                    + (failures.size() > 1 ? " (+" + (failures.size() - 1) + " more)" : "")), details);
        }
        if (!undecided.isEmpty()) {
            return new CheckResult(Verdict.inconclusive(undecided.get(0)), details);
        }
        return new CheckResult(Verdict.pass(disruptions.size() + " CP disruption(s) recovered"
                + (worstRecovery >= 0 ? " within " + ConvergenceChecker.ms(worstRecovery) : "") + " (bound "
                + ConvergenceChecker.ms(cpRecoveryBound.toNanos()) + "); " + apWrites.size()
                + " AP writes on live nodes all OK"), details);
    }
}
