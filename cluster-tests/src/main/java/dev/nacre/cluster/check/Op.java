package dev.nacre.cluster.check;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One completed client operation of a history.
 *
 * <p>{@code value} is the argument of a {@link OpKind#REGISTER}, and the result of an OK
 * {@link OpKind#READ} (empty = absent); it is empty otherwise. {@code view} is the result of an OK
 * {@link OpKind#READ_SERVICE} (instance address to value), empty otherwise. Times are monotonic
 * nanos from one clock. For an {@link Outcome#UNKNOWN} operation {@code completeNanos} is when the
 * client gave up ({@link Long#MAX_VALUE} if it never returned); checkers treat it as infinity.
 *
 * @param id unique within its history, in invocation order when recorded by {@link HistoryRecorder}
 * @param process the client (logical thread) that issued it; one operation at a time per process
 * @param node the node the client sent it to
 * @param note free text for explanations (e.g. "HTTP 503", "timeout")
 */
public record Op(long id, int process, String node, OpKind kind, Mode mode, InstanceKey key,
                 Optional<String> value, Map<String, String> view,
                 long invokeNanos, long completeNanos, Outcome outcome, String note) {

    public Op {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(note, "note");
        view = Map.copyOf(view);
        if (completeNanos < invokeNanos) {
            throw new IllegalArgumentException("op " + id + " completes before it is invoked");
        }
        if (key.isWholeService() != (kind == OpKind.READ_SERVICE)) {
            throw new IllegalArgumentException("op " + id + ": READ_SERVICE takes InstanceKey.wholeService, "
                    + "every other kind one instance");
        }
        if (kind == OpKind.REGISTER && value.isEmpty()) {
            throw new IllegalArgumentException("op " + id + ": REGISTER needs a value");
        }
    }

    /** Completion time as the checkers see it: infinity for UNKNOWN. */
    public long effectiveCompleteNanos() {
        return outcome == Outcome.UNKNOWN ? Long.MAX_VALUE : completeNanos;
    }

    /** True if this operation completed before {@code other} was invoked (real-time order). */
    public boolean precedes(Op other) {
        return effectiveCompleteNanos() < other.invokeNanos;
    }

    /** A one-line description; times are shown relative to {@code originNanos}, in microseconds. */
    public String describe(long originNanos) {
        StringBuilder b = new StringBuilder();
        b.append('#').append(id).append(" p").append(process).append('@').append(node).append(' ')
                .append(mode).append(' ').append(kind).append(' ').append(key);
        switch (kind) {
            case REGISTER -> b.append(" := ").append(value.orElseThrow());
            case READ -> b.append(outcome == Outcome.OK ? " -> " + value.orElse("<absent>") : "");
            case READ_SERVICE -> b.append(outcome == Outcome.OK ? " -> " + new java.util.TreeMap<>(view) : "");
            case DEREGISTER -> { }
        }
        b.append(" [").append(micros(invokeNanos - originNanos)).append("us, ");
        b.append(outcome == Outcome.UNKNOWN ? "inf" : micros(completeNanos - originNanos) + "us");
        b.append("] ").append(outcome);
        if (!note.isEmpty()) {
            b.append(" (").append(note).append(')');
        }
        return b.toString();
    }

    private static String micros(long nanos) {
        return Long.toString(nanos / 1_000);
    }

    @Override
    public String toString() {
        return describe(0);
    }
}
