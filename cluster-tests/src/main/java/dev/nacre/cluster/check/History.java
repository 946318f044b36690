package dev.nacre.cluster.check;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/** An immutable history: operations sorted by invocation time (then id). */
public final class History {
    private final List<Op> ops;

    public History(List<Op> ops) {
        List<Op> sorted = new ArrayList<>(ops);
        sorted.sort(Comparator.comparingLong(Op::invokeNanos).thenComparingLong(Op::id));
        this.ops = List.copyOf(sorted);
    }

    public List<Op> ops() {
        return ops;
    }

    public int size() {
        return ops.size();
    }

    /** Earliest invocation time, the origin for printed times; 0 for an empty history. */
    public long originNanos() {
        return ops.isEmpty() ? 0 : ops.get(0).invokeNanos();
    }

    public History filter(Predicate<Op> p) {
        return new History(ops.stream().filter(p).toList());
    }

    /** Operations on single instances grouped by key (service-wide reads are left out), keys sorted. */
    public Map<InstanceKey, List<Op>> byInstance() {
        Map<InstanceKey, List<Op>> m = new TreeMap<>();
        for (Op op : ops) {
            if (!op.key().isWholeService()) {
                m.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op);
            }
        }
        return m;
    }

    /** Every operation, one per line, for a failure message. */
    public String dump() {
        long origin = originNanos();
        StringBuilder b = new StringBuilder();
        for (Op op : ops) {
            b.append(op.describe(origin)).append('\n');
        }
        return b.toString();
    }
}
