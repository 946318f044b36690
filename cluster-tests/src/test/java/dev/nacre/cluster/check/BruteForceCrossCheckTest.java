package dev.nacre.cluster.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Random tiny single-instance histories (few values, so writes repeat values; UNKNOWN writes;
 * arbitrary reads, so many are not linearizable) checked by the search and by brute force over
 * every subset of UNKNOWN writes and every order that respects real time. The two must agree:
 * this guards the search's pruning of UNKNOWN writes.
 */
class BruteForceCrossCheckTest {
    private static final long SEED = CheckSeed.announced();

    @Test
    @Timeout(60)
    void searchAgreesWithBruteForce() {
        Random random = new Random(SEED);
        LinearizabilityChecker checker = new LinearizabilityChecker();
        int linearizable = 0;
        int total = 3_000;
        for (int i = 0; i < total; i++) {
            History h = randomHistory(random, 2 + random.nextInt(6));
            boolean expected = bruteForce(h.ops());
            LinearizabilityResult r = checker.check(h);
            assertThat(r.inconclusive()).isFalse();
            assertThat(r.verdict().passed()).as("seed %d, history %d:\n%s\n%s", SEED, i, h.dump(), r.report())
                    .isEqualTo(expected);
            linearizable += expected ? 1 : 0;
        }
        System.out.println(linearizable + " of " + total + " random histories linearizable");
        assertThat(linearizable).as("both kinds are exercised").isBetween(total / 10, total - total / 10);
    }

    private static History randomHistory(Random random, int n) {
        List<Op> ops = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long invoke = random.nextInt(40);
            long complete = invoke + 1 + random.nextInt(15);
            int k = random.nextInt(10);
            Optional<String> v = Optional.of("v" + random.nextInt(2));
            Op op;
            if (k < 4) {
                boolean unknown = random.nextInt(3) == 0;
                op = new Op(i, i, "n1", OpKind.REGISTER, Mode.CP, Ops.key("a"), v, java.util.Map.of(), invoke,
                        unknown ? Long.MAX_VALUE : complete, unknown ? Outcome.UNKNOWN : Outcome.OK, "");
            } else if (k < 6) {
                boolean unknown = random.nextInt(3) == 0;
                op = new Op(i, i, "n1", OpKind.DEREGISTER, Mode.CP, Ops.key("a"), Optional.empty(), java.util.Map.of(),
                        invoke, unknown ? Long.MAX_VALUE : complete, unknown ? Outcome.UNKNOWN : Outcome.OK, "");
            } else {
                op = new Op(i, i, "n1", OpKind.READ, Mode.CP, Ops.key("a"), random.nextInt(3) == 0 ? Optional.empty() : v,
                        java.util.Map.of(), invoke, complete, Outcome.OK, "");
            }
            ops.add(op);
        }
        return new History(ops);
    }

    /** Tries every subset of UNKNOWN ops and every real-time-respecting order of the chosen ops. */
    static boolean bruteForce(List<Op> ops) {
        List<Integer> unknown = new ArrayList<>();
        for (int i = 0; i < ops.size(); i++) {
            if (ops.get(i).outcome() == Outcome.UNKNOWN) {
                unknown.add(i);
            }
        }
        for (int mask = 0; mask < 1 << unknown.size(); mask++) {
            List<Op> chosen = new ArrayList<>();
            for (int i = 0; i < ops.size(); i++) {
                int u = unknown.indexOf(i);
                if (u < 0 || (mask & 1 << u) != 0) {
                    chosen.add(ops.get(i));
                }
            }
            if (order(chosen, new boolean[chosen.size()], 0, Optional.empty())) {
                return true;
            }
        }
        return false;
    }

    private static boolean order(List<Op> ops, boolean[] used, int placed, Optional<String> state) {
        if (placed == ops.size()) {
            return true;
        }
        for (int i = 0; i < ops.size(); i++) {
            if (used[i]) {
                continue;
            }
            Op op = ops.get(i);
            // op may go next only if no unplaced op completed before op was invoked.
            boolean minimal = true;
            for (int j = 0; j < ops.size() && minimal; j++) {
                minimal = used[j] || j == i || !ops.get(j).precedes(op);
            }
            if (!minimal) {
                continue;
            }
            Optional<String> next = switch (op.kind()) {
                case REGISTER -> op.value();
                case DEREGISTER -> Optional.empty();
                default -> state;
            };
            if (op.kind() == OpKind.READ && !op.value().equals(state)) {
                continue;
            }
            used[i] = true;
            boolean ok = order(ops, used, placed + 1, next);
            used[i] = false;
            if (ok) {
                return true;
            }
        }
        return false;
    }
}
