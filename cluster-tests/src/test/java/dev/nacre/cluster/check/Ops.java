package dev.nacre.cluster.check;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/** Terse hand-written histories: one service "svc", CP unless a method says AP, node "n1". */
final class Ops {
    static final String SVC = "svc";
    private static final AtomicLong IDS = new AtomicLong();

    private Ops() {
    }

    static InstanceKey key(String instance) {
        return InstanceKey.of(SVC, instance);
    }

    static Op reg(int p, String inst, String v, long inv, long comp) {
        return op(p, OpKind.REGISTER, Mode.CP, inst, Optional.of(v), inv, comp, Outcome.OK);
    }

    static Op regUnknown(int p, String inst, String v, long inv) {
        return op(p, OpKind.REGISTER, Mode.CP, inst, Optional.of(v), inv, Long.MAX_VALUE, Outcome.UNKNOWN);
    }

    static Op regFail(int p, String inst, String v, long inv, long comp) {
        return op(p, OpKind.REGISTER, Mode.CP, inst, Optional.of(v), inv, comp, Outcome.FAIL);
    }

    static Op dereg(int p, String inst, long inv, long comp) {
        return op(p, OpKind.DEREGISTER, Mode.CP, inst, Optional.empty(), inv, comp, Outcome.OK);
    }

    static Op deregUnknown(int p, String inst, long inv) {
        return op(p, OpKind.DEREGISTER, Mode.CP, inst, Optional.empty(), inv, Long.MAX_VALUE, Outcome.UNKNOWN);
    }

    /** A read returning {@code v}, or absent when {@code v} is null. */
    static Op read(int p, String inst, String v, long inv, long comp) {
        return op(p, OpKind.READ, Mode.CP, inst, Optional.ofNullable(v), inv, comp, Outcome.OK);
    }

    static Op readService(int p, Map<String, String> view, long inv, long comp) {
        return new Op(IDS.getAndIncrement(), p, "n1", OpKind.READ_SERVICE, Mode.CP, InstanceKey.wholeService(SVC),
                Optional.empty(), view, inv, comp, Outcome.OK, "");
    }

    static Op op(int p, OpKind kind, Mode mode, String inst, Optional<String> v, long inv, long comp, Outcome o) {
        return opAt(p, "n1", kind, mode, inst, v, inv, comp, o);
    }

    static Op opAt(int p, String node, OpKind kind, Mode mode, String inst, Optional<String> v, long inv, long comp,
                   Outcome o) {
        return new Op(IDS.getAndIncrement(), p, node, kind, mode, key(inst), v, Map.of(), inv, comp, o, "");
    }

    static History history(Op... ops) {
        return new History(new ArrayList<>(Arrays.asList(ops)));
    }

    static History history(List<Op> ops) {
        return new History(ops);
    }
}
