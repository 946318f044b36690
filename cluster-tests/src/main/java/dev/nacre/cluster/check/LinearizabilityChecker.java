package dev.nacre.cluster.check;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongSupplier;

/**
 * Checks that the CP operations of a history are linearizable against a registry model: per
 * instance, "present with value v" or "absent" (absent unless {@code initial} says otherwise).
 * REGISTER(v) upserts, DEREGISTER removes (idempotent), READ must return the current value.
 *
 * <p>Only {@link Mode#CP} operations are checked. FAIL writes are dropped (they took no effect);
 * reads that did not return OK are dropped (they observed nothing); UNKNOWN writes may take effect
 * at any point after their invocation, or never.
 *
 * <p>The history is split per instance (P-compositionality: a history of independent objects is
 * linearizable iff each object's is) and each part is searched with {@link JitSearch}. A
 * READ_SERVICE is projected onto every instance of its service that the history mentions: one
 * READ per instance (absent if not in the view). That finds every per-instance violation but not
 * a service read that mixes two moments that are each possible per instance (no single instant
 * had that exact set); checking that would need one model per service, whose state space grows
 * with its instance count.
 *
 * <p>The search is exponential in the worst case (many concurrent or UNKNOWN writes on one key),
 * so it is bounded by {@link Limits}: too many operations on one key, the time budget for the whole
 * history, or too many memo entries on one key make the result INCONCLUSIVE, never a hang.
 *
 * <p>Thread-safe and stateless between calls.
 */
public final class LinearizabilityChecker {

    /**
     * @param maxOpsPerKey keys with more operations (after projection) are not searched
     * @param budget wall time for the whole history
     * @param maxMemoBytes memory the memo of one key may take before the search gives up
     *     (an entry takes about ops/8 + 100 bytes)
     */
    public record Limits(int maxOpsPerKey, Duration budget, long maxMemoBytes) {
        public Limits {
            Objects.requireNonNull(budget, "budget");
            if (maxOpsPerKey < 1 || maxMemoBytes < 1 || budget.isNegative()) {
                throw new IllegalArgumentException("limits must be positive: " + maxOpsPerKey + ", " + budget
                        + ", " + maxMemoBytes);
            }
        }

        /** 50,000 ops per key, 30 s per history, 256 MiB of memo per key. */
        public static Limits defaults() {
            return new Limits(50_000, Duration.ofSeconds(30), 256L << 20);
        }
    }

    private static final int PREFIX_SHOWN = 8;
    private static final int CANDIDATES_SHOWN = 8;

    private final Limits limits;
    private final LongSupplier clock;

    public LinearizabilityChecker() {
        this(Limits.defaults(), System::nanoTime);
    }

    /** {@code clock} (monotonic nanos) only measures the time budget. */
    public LinearizabilityChecker(Limits limits, LongSupplier clock) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public LinearizabilityResult check(History history) {
        return check(history, Map.of());
    }

    /** {@code initial}: instances present before the history began, with their values. */
    public LinearizabilityResult check(History history, Map<InstanceKey, String> initial) {
        long deadline = clock.getAsLong() + limits.budget().toNanos();
        Map<InstanceKey, List<Op>> parts = partition(history);
        long origin = history.originNanos();
        List<String> inconclusive = new ArrayList<>();
        int checked = 0;
        int opsChecked = 0;
        long steps = 0;
        for (Map.Entry<InstanceKey, List<Op>> part : parts.entrySet()) {
            InstanceKey key = part.getKey();
            List<Op> keyOps = part.getValue();
            if (keyOps.size() > limits.maxOpsPerKey()) {
                inconclusive.add(key + ": " + keyOps.size() + " ops > maxOpsPerKey " + limits.maxOpsPerKey());
                continue;
            }
            if (clock.getAsLong() - deadline > 0) {
                inconclusive.add(key + ": not searched, time budget " + limits.budget() + " spent");
                continue;
            }
            Values values = new Values();
            List<JitSearch.SearchOp> searchOps = toSearchOps(key, keyOps, values);
            int init = Optional.ofNullable(initial.get(key)).map(values::id).orElse(JitSearch.ABSENT);
            JitSearch.Outcome out = new JitSearch(searchOps, init, deadline, clock, limits.maxMemoBytes()).run();
            checked++;
            opsChecked += keyOps.size();
            steps += out.steps();
            switch (out.status()) {
                case LINEARIZABLE -> { }
                case NOT_LINEARIZABLE -> {
                    return LinearizabilityResult.failed(key, explain(key, searchOps, values, out, origin),
                            parts.size(), checked, opsChecked, steps);
                }
                case BUDGET_EXHAUSTED -> inconclusive.add(key + ": " + out.budgetReason() + " after "
                        + out.steps() + " steps (" + keyOps.size() + " ops)");
            }
        }
        if (!inconclusive.isEmpty()) {
            return LinearizabilityResult.inconclusive(inconclusive, parts.size(), checked, opsChecked, steps);
        }
        return LinearizabilityResult.passed(parts.size(), opsChecked, steps);
    }

    /** CP operations that matter, per instance, with service reads projected. */
    static Map<InstanceKey, List<Op>> partition(History history) {
        Map<InstanceKey, List<Op>> parts = new TreeMap<>();
        Map<String, Set<String>> instancesOfService = new HashMap<>();
        List<Op> serviceReads = new ArrayList<>();
        for (Op op : history.ops()) {
            if (op.mode() != Mode.CP) {
                continue;
            }
            if (op.kind() == OpKind.READ_SERVICE) {
                if (op.outcome() == Outcome.OK) {
                    serviceReads.add(op);
                    instancesOfService.computeIfAbsent(op.key().service(), s -> new TreeSet<>())
                            .addAll(op.view().keySet());
                }
                continue;
            }
            instancesOfService.computeIfAbsent(op.key().service(), s -> new TreeSet<>()).add(op.key().instance());
            boolean matters = op.kind().isWrite() ? op.outcome() != Outcome.FAIL : op.outcome() == Outcome.OK;
            if (matters) {
                parts.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op);
            }
        }
        for (Op read : serviceReads) {
            for (String instance : instancesOfService.get(read.key().service())) {
                parts.computeIfAbsent(InstanceKey.of(read.key().service(), instance), k -> new ArrayList<>()).add(read);
            }
        }
        return parts;
    }

    private static List<JitSearch.SearchOp> toSearchOps(InstanceKey key, List<Op> ops, Values values) {
        List<JitSearch.SearchOp> out = new ArrayList<>(ops.size());
        for (Op op : ops) {
            long ret = op.effectiveCompleteNanos();
            boolean known = op.outcome() != Outcome.UNKNOWN;
            out.add(switch (op.kind()) {
                case REGISTER -> new JitSearch.SearchOp(op, "", JitSearch.Kind.REGISTER,
                        values.id(op.value().orElseThrow()), op.invokeNanos(), ret, known);
                case DEREGISTER -> new JitSearch.SearchOp(op, "", JitSearch.Kind.DEREGISTER, JitSearch.ABSENT,
                        op.invokeNanos(), ret, known);
                case READ -> new JitSearch.SearchOp(op, "", JitSearch.Kind.READ,
                        op.value().map(values::id).orElse(JitSearch.ABSENT), op.invokeNanos(), ret, known);
                case READ_SERVICE -> {
                    String seen = op.view().get(key.instance());
                    yield new JitSearch.SearchOp(op, " (seen for " + key.instance() + ": "
                            + (seen == null ? "<absent>" : seen) + ")", JitSearch.Kind.READ,
                            seen == null ? JitSearch.ABSENT : values.id(seen), op.invokeNanos(), ret, known);
                }
            });
        }
        return out;
    }

    private static List<String> explain(InstanceKey key, List<JitSearch.SearchOp> ops, Values values,
                                        JitSearch.Outcome out, long origin) {
        List<String> lines = new ArrayList<>();
        long unknown = ops.stream().filter(o -> !o.known()).count();
        List<Integer> prefix = out.bestPrefix();
        String blocked = out.blockedOp() < 0 ? "" : " " + describe(ops.get(out.blockedOp()), origin);
        lines.add("(" + ops.size() + " ops, " + unknown + " UNKNOWN, " + out.steps() + " search steps)" + blocked
                + " cannot follow the longest linearizable prefix (" + prefix.size() + " ops, leaving "
                + values.name(out.stateAfterPrefix()) + ")");
        lines.add("longest linearizable prefix: " + prefix.size() + " ops"
                + (prefix.size() > PREFIX_SHOWN ? ", last " + PREFIX_SHOWN + " shown" : "") + ", in linearization order:");
        for (int i = Math.max(0, prefix.size() - PREFIX_SHOWN); i < prefix.size(); i++) {
            lines.add("  " + describe(ops.get(prefix.get(i)), origin));
        }
        lines.add("state after that prefix: " + values.name(out.stateAfterPrefix()));
        if (out.blockedOp() >= 0) {
            lines.add("then this op must take effect before it returned, but no order allows it:");
            JitSearch.SearchOp stuck = ops.get(out.blockedOp());
            lines.add("  " + describe(stuck, origin));
            if (stuck.kind() == JitSearch.Kind.READ) {
                List<JitSearch.SearchOp> writers = ops.stream().filter(o -> o.kind() != JitSearch.Kind.READ
                        && o.value() == stuck.value()).toList();
                lines.add("writes that could explain the value it read" + (writers.isEmpty() ? ": none" : ":"));
                writers.stream().limit(CANDIDATES_SHOWN).forEach(w -> lines.add("  " + describe(w, origin)));
            }
        }
        List<Integer> cands = out.candidatesAtBlock();
        if (!cands.isEmpty()) {
            lines.add("ops that could still go before it" + (cands.size() > CANDIDATES_SHOWN
                    ? " (first " + CANDIDATES_SHOWN + " of " + cands.size() + ")" : "") + ":");
            for (int i = 0; i < Math.min(CANDIDATES_SHOWN, cands.size()); i++) {
                lines.add("  " + describe(ops.get(cands.get(i)), origin));
            }
        }
        return lines;
    }

    private static String describe(JitSearch.SearchOp op, long origin) {
        return op.source().describe(origin) + op.label();
    }

    /** Interns values of one key as small ints. */
    private static final class Values {
        private final Map<String, Integer> ids = new HashMap<>();
        private final List<String> names = new ArrayList<>();

        int id(String v) {
            return ids.computeIfAbsent(v, x -> {
                names.add(x);
                return names.size() - 1;
            });
        }

        String name(int id) {
            return id == JitSearch.ABSENT ? "<absent>" : names.get(id);
        }
    }
}
