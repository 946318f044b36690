package dev.nacre.cluster.check;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/**
 * Lowe's just-in-time linearization (the Wing-Gong search with memoization, as in Porcupine) for
 * one key's register: state is a value id or {@link #ABSENT}. Single-threaded, one use.
 *
 * <p>Entries (calls and returns) sit in a doubly linked list in time order. The search walks from
 * the head: a call entry is tried as the next linearized operation (if the model allows it and
 * the pair (set of linearized ops, resulting state) was not seen before, it is lifted out of the
 * list and the walk restarts); a return entry of an operation not yet linearized means the current
 * prefix cannot be extended, so the search backtracks. UNKNOWN writes have no return entry: they
 * may be linearized at any point after their call, or never. The history is linearizable once
 * every operation with a return entry is linearized. UNKNOWN writes are only tried where some
 * remaining read could observe them (see {@code readsLeft}), which keeps unobserved ones from
 * multiplying the search by 2^unknowns.
 */
final class JitSearch {
    static final int ABSENT = -1;

    enum Kind { REGISTER, DEREGISTER, READ }

    /** One operation of the search; {@code value} is a value id or ABSENT; {@code known} = has a return. */
    record SearchOp(Op source, String label, Kind kind, int value, long call, long ret, boolean known) {
    }

    enum Status { LINEARIZABLE, NOT_LINEARIZABLE, BUDGET_EXHAUSTED }

    /** The deepest point the search reached, for the explanation. */
    record Outcome(Status status, String budgetReason, List<Integer> bestPrefix, int stateAfterPrefix,
                   int blockedOp, List<Integer> candidatesAtBlock, long steps, long memoEntries) {
    }

    private static final int CHECK_EVERY = 1 << 12;

    private final List<SearchOp> ops;
    private final int initialState;
    private final long deadlineNanos;
    private final LongSupplier clock;
    private final long maxMemoBytes;

    // Entry list: entry i in [0, entries); HEAD = entries is the sentinel.
    private int[] next;
    private int[] prev;
    private int[] entryOp;
    private boolean[] isCall;
    private int[] returnOf;   // call entry -> its return entry, or -1

    JitSearch(List<SearchOp> ops, int initialState, long deadlineNanos, LongSupplier clock, long maxMemoBytes) {
        this.ops = ops;
        this.initialState = initialState;
        this.deadlineNanos = deadlineNanos;
        this.clock = clock;
        this.maxMemoBytes = maxMemoBytes;
    }

    Outcome run() {
        int n = ops.size();
        int required = 0;
        List<int[]> es = new ArrayList<>(); // {op, isCall?1:0}
        for (int i = 0; i < n; i++) {
            es.add(new int[] {i, 1});
            if (ops.get(i).known()) {
                es.add(new int[] {i, 0});
                required++;
            }
        }
        if (required == 0) {
            return new Outcome(Status.LINEARIZABLE, "", List.of(), initialState, -1, List.of(), 0, 0);
        }
        es.sort(Comparator.<int[]>comparingLong(e -> e[1] == 1 ? ops.get(e[0]).call() : ops.get(e[0]).ret())
                .thenComparingInt(e -> -e[1])   // calls before returns at equal times: concurrent
                .thenComparingInt(e -> e[0]));
        int entries = es.size();
        int head = entries;
        next = new int[entries + 1];
        prev = new int[entries + 1];
        entryOp = new int[entries];
        isCall = new boolean[entries];
        returnOf = new int[entries];
        int[] callEntryOf = new int[n];
        Arrays.fill(returnOf, -1);
        for (int e = 0; e < entries; e++) {
            entryOp[e] = es.get(e)[0];
            isCall[e] = es.get(e)[1] == 1;
            if (isCall[e]) {
                callEntryOf[entryOp[e]] = e;
            }
        }
        for (int e = 0; e < entries; e++) {
            if (!isCall[e]) {
                returnOf[callEntryOf[entryOp[e]]] = e;
            }
        }
        // Circular list through the sentinel; -1 is never used, the sentinel ends a walk.
        for (int e = 0; e <= entries; e++) {
            next[e] = e == entries ? 0 : e + 1;
            prev[e] = e == 0 ? entries : e - 1;
        }

        // Unread values: linearizing an UNKNOWN write whose result no remaining read expects (or
        // that leaves the state as it is) is never needed. From that configuration every
        // continuation must overwrite the state before its next read, and the same continuation
        // works with the write left out, which UNKNOWN allows.
        int maxValue = 0;
        for (SearchOp o : ops) {
            maxValue = Math.max(maxValue, o.value() + 1);
        }
        int[] readsLeft = new int[maxValue + 1];
        for (SearchOp o : ops) {
            if (o.kind() == Kind.READ) {
                readsLeft[o.value() + 1]++;
            }
        }

        long[] zobrist = new SplittableRandom(0x5eed).longs(n).toArray();
        long[] bits = new long[(n + 63) >>> 6];
        long bitsHash = 0;
        Set<MemoKey> memo = new HashSet<>();
        // A memo entry: its bit set, the key object and the hash table's node (~ 100 bytes).
        long maxMemoEntries = Math.max(1, maxMemoBytes / (bits.length * 8L + 100));
        int[] stackEntry = new int[n];
        int[] stackState = new int[n];
        boolean[] stackMustRead = new boolean[n];
        // Set after an UNKNOWN write: the next op must be a read. Were it a write, the same
        // prefix without the UNKNOWN write reaches the same state, and leaving it out is allowed.
        boolean mustRead = false;
        int depth = 0;
        int state = initialState;
        int done = 0;
        long steps = 0;

        int bestDepth = -1;
        List<Integer> bestPrefix = List.of();
        int bestState = initialState;
        int blocked = -1;
        List<Integer> candidates = List.of();

        int entry = next[head];
        while (true) {
            if (++steps % CHECK_EVERY == 0 && clock.getAsLong() - deadlineNanos > 0) {
                return new Outcome(Status.BUDGET_EXHAUSTED, "time budget spent", bestPrefix, bestState, blocked,
                        candidates, steps, memo.size());
            }
            if (entry == head) {
                // Only calls of UNKNOWN writes remain past this point: leaving them out is allowed.
                return new Outcome(Status.LINEARIZABLE, "", List.of(), state, -1, List.of(), steps, memo.size());
            }
            int op = entryOp[entry];
            if (isCall[entry]) {
                SearchOp so = ops.get(op);
                int newState = step(state, so);
                boolean allowed = newState != Integer.MIN_VALUE
                        && (!mustRead || so.kind() == Kind.READ)
                        && (so.known() || (newState != state && readsLeft[newState + 1] > 0));
                if (allowed) {
                    bits[op >>> 6] |= 1L << op;
                    long h = bitsHash ^ zobrist[op];
                    // The must-read flag is part of the configuration: a constrained one failing
                    // says nothing about the unconstrained one with the same ops and state.
                    int memoState = newState * 2 + (so.known() ? 0 : 1);
                    // Probe with the live bits; copy them only for a new entry.
                    if (!memo.contains(new MemoKey(bits, memoState, h * 31 + memoState))) {
                        memo.add(new MemoKey(bits.clone(), memoState, h * 31 + memoState));
                        if (memo.size() > maxMemoEntries) {
                            return new Outcome(Status.BUDGET_EXHAUSTED, "memo limit of " + maxMemoEntries
                                    + " entries (" + maxMemoBytes + " bytes) reached", bestPrefix, bestState, blocked, candidates, steps, memo.size());
                        }
                        stackEntry[depth] = entry;
                        stackState[depth] = state;
                        stackMustRead[depth] = mustRead;
                        depth++;
                        mustRead = !so.known();
                        state = newState;
                        bitsHash = h;
                        lift(entry);
                        if (so.kind() == Kind.READ) {
                            readsLeft[so.value() + 1]--;
                        }
                        if (ops.get(op).known() && ++done == required) {
                            return new Outcome(Status.LINEARIZABLE, "", List.of(), state, -1, List.of(), steps,
                                    memo.size());
                        }
                        entry = next[head];
                        continue;
                    }
                    bits[op >>> 6] &= ~(1L << op);
                }
                entry = next[entry];
            } else {
                if (depth > bestDepth) {
                    bestDepth = depth;
                    List<Integer> prefix = new ArrayList<>(depth);
                    for (int i = 0; i < depth; i++) {
                        prefix.add(entryOp[stackEntry[i]]);
                    }
                    bestPrefix = prefix;
                    bestState = state;
                    blocked = op;
                    List<Integer> cands = new ArrayList<>();
                    for (int e = next[head]; e != entry; e = next[e]) {
                        if (isCall[e] && entryOp[e] != op) {
                            cands.add(entryOp[e]);
                        }
                    }
                    candidates = cands;
                }
                if (depth == 0) {
                    return new Outcome(Status.NOT_LINEARIZABLE, "", bestPrefix, bestState, blocked, candidates, steps,
                            memo.size());
                }
                depth--;
                int call = stackEntry[depth];
                int undone = entryOp[call];
                unlift(call);
                if (ops.get(undone).kind() == Kind.READ) {
                    readsLeft[ops.get(undone).value() + 1]++;
                }
                state = stackState[depth];
                mustRead = stackMustRead[depth];
                bits[undone >>> 6] &= ~(1L << undone);
                bitsHash ^= zobrist[undone];
                if (ops.get(undone).known()) {
                    done--;
                }
                entry = next[call];
            }
        }
    }

    /** The state after {@code op}, or Integer.MIN_VALUE if the model does not allow it here. */
    private static int step(int state, SearchOp op) {
        return switch (op.kind()) {
            case REGISTER -> op.value();
            case DEREGISTER -> ABSENT;
            case READ -> op.value() == state ? state : Integer.MIN_VALUE;
        };
    }

    private void lift(int call) {
        next[prev[call]] = next[call];
        prev[next[call]] = prev[call];
        int ret = returnOf[call];
        if (ret >= 0) {
            next[prev[ret]] = next[ret];
            prev[next[ret]] = prev[ret];
        }
    }

    private void unlift(int call) {
        int ret = returnOf[call];
        if (ret >= 0) {
            prev[next[ret]] = ret;
            next[prev[ret]] = ret;
        }
        prev[next[call]] = call;
        next[prev[call]] = call;
    }

    private record MemoKey(long[] bits, int state, long hash) {
        @Override
        public boolean equals(Object o) {
            return o instanceof MemoKey k && k.hash == hash && k.state == state && Arrays.equals(k.bits, bits);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(hash);
        }

        @Override
        public String toString() {
            return "MemoKey[" + state + "]";
        }
    }
}
