package dev.nacre.cluster.check;

import java.util.List;
import java.util.Optional;

/**
 * The result of {@link LinearizabilityChecker}: a verdict, and on FAIL the instance whose history
 * is not linearizable with an explanation (longest linearizable prefix, the operation that cannot
 * follow it, the operations concurrent with it).
 *
 * @param failedKey the non-linearizable instance, on FAIL
 * @param details explanation lines on FAIL (after the verdict's summary), the keys not decided on
 *     INCONCLUSIVE
 * @param keys instances in the history (after projecting service reads)
 * @param keysChecked instances searched before the verdict
 * @param opsChecked operations in the searched instances
 * @param searchSteps steps the search took over all instances (a measure of its effort)
 */
public record LinearizabilityResult(Verdict verdict, Optional<InstanceKey> failedKey, List<String> details,
                                    int keys, int keysChecked, int opsChecked, long searchSteps) {

    public LinearizabilityResult {
        details = List.copyOf(details);
    }

    static LinearizabilityResult passed(int keys, int ops, long steps) {
        return new LinearizabilityResult(Verdict.pass("linearizable: " + keys + " instances, " + ops + " CP ops"),
                Optional.empty(), List.of(), keys, keys, ops, steps);
    }

    static LinearizabilityResult failed(InstanceKey key, List<String> explanation, int keys, int checked, int ops,
                                        long steps) {
        return new LinearizabilityResult(Verdict.fail("not linearizable on " + key + " " + explanation.get(0)),
                Optional.of(key), explanation.subList(1, explanation.size()), keys, checked, ops, steps);
    }

    static LinearizabilityResult inconclusive(List<String> undecided, int keys, int checked, int ops, long steps) {
        return new LinearizabilityResult(Verdict.inconclusive(undecided.size() + " of " + keys
                + " instances undecided, first: " + undecided.get(0)), Optional.empty(), undecided, keys, checked, ops,
                steps);
    }

    public boolean inconclusive() {
        return verdict.status() == Verdict.Status.INCONCLUSIVE;
    }

    /** The verdict line followed by the details, for a test failure message. */
    public String report() {
        return new CheckResult(verdict, details).report();
    }

    @Override
    public String toString() {
        return report();
    }
}
