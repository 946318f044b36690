package dev.nacre.cluster.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class HistoryRecorderTest {
    private static final InstanceKey A = InstanceKey.of("svc", "127.0.0.1:80");

    @Test
    void recordsTimesFromTheInjectedClock() {
        AtomicLong clock = new AtomicLong(100);
        HistoryRecorder rec = new HistoryRecorder(() -> clock.getAndAdd(10));
        HistoryRecorder.Pending w = rec.invoke(1, "n1", OpKind.REGISTER, Mode.CP, A, Optional.of("v1"));
        HistoryRecorder.Pending r = rec.invoke(2, "n2", OpKind.READ, Mode.CP, A, Optional.empty());
        r.okRead(Optional.of("v1"));
        w.ok();
        List<Op> ops = rec.history().ops();
        assertThat(ops).extracting(Op::invokeNanos).containsExactly(100L, 110L);
        assertThat(ops).extracting(Op::completeNanos).containsExactly(130L, 120L);
        assertThat(ops.get(1).value()).contains("v1");
        assertThat(ops.get(0).value()).contains("v1");
    }

    @Test
    void pendingOperationsShowUpAsUnknown() {
        HistoryRecorder rec = new HistoryRecorder();
        rec.invoke(1, "n1", OpKind.REGISTER, Mode.CP, A, Optional.of("v1"));
        Op op = rec.history().ops().get(0);
        assertThat(op.outcome()).isEqualTo(Outcome.UNKNOWN);
        assertThat(op.completeNanos()).isEqualTo(Long.MAX_VALUE);
        assertThat(op.note()).isEqualTo("still pending");
    }

    @Test
    void completingTwiceIsAnError() {
        HistoryRecorder.Pending p = new HistoryRecorder().invoke(1, "n1", OpKind.DEREGISTER, Mode.CP, A,
                Optional.empty());
        p.ok();
        assertThatThrownBy(p::ok).isInstanceOf(IllegalStateException.class).hasMessageContaining("completed twice");
    }

    @Test
    void statusesAndErrorsAreClassified() {
        HistoryRecorder rec = new HistoryRecorder();
        assertThat(rec.invoke(1, "n1", OpKind.REGISTER, Mode.CP, A, Optional.of("v")).status(503, "no quorum")
                .outcome()).isEqualTo(Outcome.UNKNOWN);
        assertThat(rec.invoke(1, "n1", OpKind.REGISTER, Mode.CP, A, Optional.of("v")).status(400, "bad ip")
                .outcome()).isEqualTo(Outcome.FAIL);
        assertThat(rec.invoke(1, "n1", OpKind.DEREGISTER, Mode.CP, A, Optional.empty())
                .error(new SocketTimeoutException("read timed out")).outcome()).isEqualTo(Outcome.UNKNOWN);
        assertThat(rec.invoke(1, "n1", OpKind.REGISTER, Mode.AP, A, Optional.of("v"))
                .error(new RuntimeException(new ConnectException("refused"))).outcome()).isEqualTo(Outcome.FAIL);
        assertThat(rec.invoke(1, "n1", OpKind.READ, Mode.CP, A, Optional.empty()).status(503, "no quorum")
                .outcome()).isEqualTo(Outcome.FAIL);
        assertThat(rec.history().ops()).extracting(Op::note)
                .contains("HTTP 503 no quorum", "SocketTimeoutException: read timed out");
    }

    @Test
    void outcomeRules() {
        assertThat(OutcomeRules.ofStatus(OpKind.REGISTER, Mode.CP, 200)).isEqualTo(Outcome.OK);
        assertThat(OutcomeRules.ofStatus(OpKind.REGISTER, Mode.CP, 503)).isEqualTo(Outcome.UNKNOWN);
        assertThat(OutcomeRules.ofStatus(OpKind.DEREGISTER, Mode.CP, 500)).isEqualTo(Outcome.UNKNOWN);
        assertThat(OutcomeRules.ofStatus(OpKind.REGISTER, Mode.CP, 408)).isEqualTo(Outcome.UNKNOWN);
        assertThat(OutcomeRules.ofStatus(OpKind.REGISTER, Mode.AP, 503)).isEqualTo(Outcome.UNKNOWN);
        assertThat(OutcomeRules.ofStatus(OpKind.REGISTER, Mode.CP, 400)).isEqualTo(Outcome.FAIL);
        assertThat(OutcomeRules.ofStatus(OpKind.READ_SERVICE, Mode.CP, 500)).isEqualTo(Outcome.FAIL);
        assertThat(OutcomeRules.ofError(OpKind.REGISTER, Mode.CP, new ConnectException())).isEqualTo(Outcome.FAIL);
        assertThat(OutcomeRules.ofError(OpKind.REGISTER, Mode.CP, new java.io.IOException("reset")))
                .isEqualTo(Outcome.UNKNOWN);
    }

    @Test
    void concurrentClientsLoseNothing() throws Exception {
        HistoryRecorder rec = new HistoryRecorder();
        int threads = 8;
        int perThread = 5_000;
        ReleasedTogether.run(threads, 20, process -> {
            for (int i = 0; i < perThread; i++) {
                HistoryRecorder.Pending p = rec.invoke(process, "n1", OpKind.READ_SERVICE, Mode.AP,
                        InstanceKey.wholeService("svc"), Optional.empty());
                if (i % 1_000 == 0) {
                    rec.history();   // snapshots race with completions
                }
                p.okView(Map.of("127.0.0.1:80", "p" + process));
            }
        });
        History h = rec.history();
        assertThat(h.size()).isEqualTo(threads * perThread);
        assertThat(h.ops()).extracting(Op::id).doesNotHaveDuplicates();
        assertThat(h.ops()).allMatch(op -> op.outcome() == Outcome.OK);
    }
}
