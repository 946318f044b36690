package dev.nacre.cluster.check;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Checks that no acknowledged CP write was lost and no removed instance came back, given the
 * persistent instances read from every node after recovery (all faults healed, all writes done).
 *
 * <p>Per instance, a CP write (OK or UNKNOWN; FAIL writes took no effect) may be the last one to
 * take effect unless an OK write of the same instance was invoked after it completed (UNKNOWN
 * writes never complete, so they always may be last). Every node's final state must be the result
 * of one such possible last write: present with v for a REGISTER(v), absent for a DEREGISTER. In
 * particular an OK REGISTER that no OK/UNKNOWN DEREGISTER may follow must be present ("lost
 * acknowledged write" otherwise), and an OK DEREGISTER that no REGISTER may follow must be absent
 * ("resurrected" otherwise). An instance without an OK write may also keep its initial state.
 * Instances the history never wrote must keep their {@code initial} state.
 *
 * <p>Stateless and thread-safe.
 */
public final class DurabilityChecker {
    private static final int SHOWN = 10;

    public CheckResult check(History history, Map<String, Map<InstanceKey, String>> finalStates) {
        return check(history, Map.of(), finalStates);
    }

    /**
     * @param initial persistent instances present before the history began
     * @param finalStates node id to that node's persistent instances (instance to value)
     */
    public CheckResult check(History history, Map<InstanceKey, String> initial,
                             Map<String, Map<InstanceKey, String>> finalStates) {
        if (finalStates.isEmpty()) {
            return new CheckResult(Verdict.inconclusive("no final state read from any node"), List.of());
        }
        Map<InstanceKey, List<Op>> writes = new TreeMap<>();
        for (Op op : history.ops()) {
            if (op.mode() == Mode.CP && op.kind().isWrite() && op.outcome() != Outcome.FAIL) {
                writes.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op);
            }
        }
        Set<InstanceKey> keys = new TreeSet<>(writes.keySet());
        keys.addAll(initial.keySet());
        finalStates.values().forEach(m -> keys.addAll(m.keySet()));

        long origin = history.originNanos();
        List<String> violations = new ArrayList<>();
        int lost = 0;
        int resurrected = 0;
        for (InstanceKey key : keys) {
            List<Op> keyWrites = writes.getOrDefault(key, List.of());
            List<Op> lastCandidates = keyWrites.stream()
                    .filter(w -> keyWrites.stream().noneMatch(y -> y.outcome() == Outcome.OK && w.precedes(y)))
                    .toList();
            boolean initialPossible = keyWrites.stream().noneMatch(w -> w.outcome() == Outcome.OK);
            Optional<String> initialValue = Optional.ofNullable(initial.get(key));
            for (Map.Entry<String, Map<InstanceKey, String>> node : new TreeMap<>(finalStates).entrySet()) {
                Optional<String> seen = Optional.ofNullable(node.getValue().get(key));
                boolean explained = (initialPossible && seen.equals(initialValue))
                        || lastCandidates.stream().anyMatch(w -> effect(w).equals(seen));
                if (explained) {
                    continue;
                }
                String kind;
                if (seen.isEmpty()) {
                    kind = "LOST";
                    lost++;
                } else if (lastCandidates.stream().allMatch(w -> w.kind() == OpKind.DEREGISTER)
                        && !(initialPossible && initialValue.isPresent())) {
                    kind = "RESURRECTED";
                    resurrected++;
                } else {
                    kind = "WRONG VALUE";
                }
                StringBuilder b = new StringBuilder(kind).append(": ").append(key).append(" on ")
                        .append(node.getKey()).append(" is ").append(seen.orElse("<absent>"))
                        .append("; possible last writes:");
                if (initialPossible) {
                    b.append("\n  initial state ").append(initialValue.orElse("<absent>"));
                }
                lastCandidates.forEach(w -> b.append("\n  ").append(w.describe(origin)));
                violations.add(b.toString());
            }
        }
        if (!violations.isEmpty()) {
            List<String> shown = violations.size() > SHOWN
                    ? new ArrayList<>(violations.subList(0, SHOWN)) : new ArrayList<>(violations);
            if (violations.size() > SHOWN) {
                shown.add("... and " + (violations.size() - SHOWN) + " more");
            }
            return new CheckResult(Verdict.fail(violations.size() + " node-instance states unexplained ("
                    + lost + " lost, " + resurrected + " resurrected), first: " + violations.get(0).lines().findFirst()
                    .orElseThrow()), shown);
        }
        return new CheckResult(Verdict.pass("final CP state of " + finalStates.size() + " nodes matches "
                + keys.size() + " instances' possible last writes"), List.of());
    }

    private static Optional<String> effect(Op write) {
        return write.kind() == OpKind.REGISTER ? write.value() : Optional.empty();
    }
}
