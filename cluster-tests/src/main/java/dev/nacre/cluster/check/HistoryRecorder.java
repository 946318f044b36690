package dev.nacre.cluster.check;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Collects a history from concurrent clients. A client calls {@link #invoke} just before it sends
 * a request and completes the returned {@link Pending} exactly once when it has an answer.
 *
 * <p>Thread-safe: any number of threads may invoke and complete concurrently. {@link #history()}
 * may be called at any time; operations still pending then appear as UNKNOWN.
 */
public final class HistoryRecorder {
    private final LongSupplier clock;
    private final AtomicLong ids = new AtomicLong();
    private final ConcurrentLinkedQueue<Op> done = new ConcurrentLinkedQueue<>();
    private final Map<Long, Pending> pending = new ConcurrentHashMap<>();

    /** Records times from {@link System#nanoTime()}. */
    public HistoryRecorder() {
        this(System::nanoTime);
    }

    /** Records times from {@code clock}, which must be monotonic and shared by all clients. */
    public HistoryRecorder(LongSupplier clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Starts an operation now. {@code argument} is the value of a REGISTER and empty otherwise.
     */
    public Pending invoke(int process, String node, OpKind kind, Mode mode, InstanceKey key,
                          Optional<String> argument) {
        Pending p = new Pending(ids.getAndIncrement(), process, node, kind, mode, key, argument,
                clock.getAsLong());
        pending.put(p.id, p);
        return p;
    }

    /** The operations so far; those not completed yet are UNKNOWN with no completion time. */
    public History history() {
        // Pending first, then done: an op completing in between shows up twice (never zero
        // times, since finish() adds to done before it leaves pending); keep the completed copy.
        List<Op> ops = new ArrayList<>();
        for (Pending p : pending.values()) {
            if (!p.completed.get()) {
                ops.add(p.op(Long.MAX_VALUE, Outcome.UNKNOWN, p.argument, Map.of(), "still pending"));
            }
        }
        ops.addAll(done);
        Map<Long, Op> unique = new java.util.TreeMap<>();
        for (Op op : ops) {
            unique.merge(op.id(), op, (a, b) -> a.outcome() == Outcome.UNKNOWN && a.completeNanos() == Long.MAX_VALUE ? b : a);
        }
        return new History(new ArrayList<>(unique.values()));
    }

    /** An invoked operation waiting for its outcome. Complete it exactly once. */
    public final class Pending {
        private final long id;
        private final int process;
        private final String node;
        private final OpKind kind;
        private final Mode mode;
        private final InstanceKey key;
        private final Optional<String> argument;
        private final long invokeNanos;
        private final AtomicBoolean completed = new AtomicBoolean();

        private Pending(long id, int process, String node, OpKind kind, Mode mode, InstanceKey key,
                        Optional<String> argument, long invokeNanos) {
            this.id = id;
            this.process = process;
            this.node = node;
            this.kind = kind;
            this.mode = mode;
            this.key = key;
            this.argument = argument;
            this.invokeNanos = invokeNanos;
        }

        /** A write was acknowledged. */
        public Op ok() {
            if (!kind.isWrite()) {
                throw new IllegalStateException("op " + id + " is a " + kind + "; use okRead or okView");
            }
            return finish(Outcome.OK, argument, Map.of(), "");
        }

        /** A READ returned {@code value} (empty = absent). */
        public Op okRead(Optional<String> value) {
            requireKind(OpKind.READ);
            return finish(Outcome.OK, value, Map.of(), "");
        }

        /** A READ_SERVICE returned {@code view}. */
        public Op okView(Map<String, String> view) {
            requireKind(OpKind.READ_SERVICE);
            return finish(Outcome.OK, Optional.empty(), view, "");
        }

        /** Definitely not applied; see {@link OutcomeRules} before choosing this over unknown. */
        public Op fail(String why) {
            return finish(Outcome.FAIL, kind == OpKind.REGISTER ? argument : Optional.empty(), Map.of(), why);
        }

        /** May or may not be applied, now or later. */
        public Op unknown(String why) {
            return finish(Outcome.UNKNOWN, kind == OpKind.REGISTER ? argument : Optional.empty(), Map.of(), why);
        }

        /** A non-2xx answer, classified by {@link OutcomeRules#ofStatus}. */
        public Op status(int httpStatus, String why) {
            Outcome o = OutcomeRules.ofStatus(kind, mode, httpStatus);
            if (o == Outcome.OK) {
                throw new IllegalArgumentException("HTTP " + httpStatus + " is a success; use ok/okRead/okView");
            }
            return o == Outcome.FAIL ? fail("HTTP " + httpStatus + " " + why) : unknown("HTTP " + httpStatus + " " + why);
        }

        /** No answer but an exception, classified by {@link OutcomeRules#ofError}. */
        public Op error(Throwable error) {
            String why = error.getClass().getSimpleName() + ": " + error.getMessage();
            return OutcomeRules.ofError(kind, mode, error) == Outcome.FAIL ? fail(why) : unknown(why);
        }

        private void requireKind(OpKind k) {
            if (kind != k) {
                throw new IllegalStateException("op " + id + " is a " + kind + ", not a " + k);
            }
        }

        private Op finish(Outcome outcome, Optional<String> value, Map<String, String> view, String note) {
            long now = clock.getAsLong();
            if (!completed.compareAndSet(false, true)) {
                throw new IllegalStateException("op " + id + " completed twice");
            }
            Op op = op(now, outcome, value, view, note);
            done.add(op);
            pending.remove(id);
            return op;
        }

        private Op op(long completeNanos, Outcome outcome, Optional<String> value, Map<String, String> view,
                      String note) {
            return new Op(id, process, node, kind, mode, key, value, view, invokeNanos,
                    Math.max(completeNanos, invokeNanos), outcome, note);
        }
    }
}
