package dev.nacre.cluster.check;

import static dev.nacre.cluster.check.Ops.dereg;
import static dev.nacre.cluster.check.Ops.deregUnknown;
import static dev.nacre.cluster.check.Ops.history;
import static dev.nacre.cluster.check.Ops.key;
import static dev.nacre.cluster.check.Ops.reg;
import static dev.nacre.cluster.check.Ops.regFail;
import static dev.nacre.cluster.check.Ops.regUnknown;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class DurabilityCheckerTest {
    private final DurabilityChecker checker = new DurabilityChecker();

    private static Map<String, Map<InstanceKey, String>> everywhere(Map<InstanceKey, String> state) {
        return Map.of("n1", state, "n2", state, "n3", state);
    }

    private CheckResult check(History h, Map<String, Map<InstanceKey, String>> finals) {
        CheckResult r = checker.check(h, finals);
        System.out.println(r.report());
        return r;
    }

    @Test
    void acknowledgedWritesPresentPasses() {
        History h = history(reg(1, "a", "v1", 0, 10), reg(1, "a", "v2", 20, 30), reg(2, "b", "w", 0, 10),
                dereg(2, "c", 0, 10));
        CheckResult r = check(h, everywhere(Map.of(key("a"), "v2", key("b"), "w")));
        assertThat(r.verdict().passed()).as(r.report()).isTrue();
    }

    @Test
    void lostAcknowledgedWriteFails() {
        History h = history(reg(1, "a", "v1", 0, 10), reg(2, "b", "w", 0, 10));
        CheckResult r = check(h, Map.of("n1", Map.of(key("a"), "v1", key("b"), "w"), "n2", Map.of(key("b"), "w")));
        assertThat(r.verdict().status()).isEqualTo(Verdict.Status.FAIL);
        assertThat(r.verdict().line()).contains("1 lost").contains("LOST: svc/a on n2 is <absent>");
    }

    @Test
    void resurrectedDeregisteredInstanceFails() {
        History h = history(reg(1, "a", "v1", 0, 10), dereg(1, "a", 20, 30));
        CheckResult r = check(h, everywhere(Map.of(key("a"), "v1")));
        assertThat(r.verdict().status()).isEqualTo(Verdict.Status.FAIL);
        assertThat(r.verdict().line()).contains("3 resurrected").contains("RESURRECTED: svc/a");
    }

    @Test
    void concurrentRegisterAndDeregisterMayEndEitherWay() {
        History h = history(reg(1, "a", "v1", 0, 100), dereg(2, "a", 10, 20));
        assertThat(check(h, everywhere(Map.of(key("a"), "v1"))).verdict().passed()).isTrue();
        assertThat(check(h, everywhere(Map.of())).verdict().passed()).isTrue();
    }

    @Test
    void unknownWritesMayOrMayNotHaveTakenEffect() {
        History h = history(reg(1, "a", "v1", 0, 10), deregUnknown(1, "a", 20), regUnknown(2, "b", "w", 0));
        assertThat(check(h, everywhere(Map.of(key("a"), "v1"))).verdict().passed()).isTrue();
        assertThat(check(h, everywhere(Map.of(key("b"), "w"))).verdict().passed()).isTrue();
    }

    @Test
    void overwrittenValueComingBackFails() {
        History h = history(reg(1, "a", "v1", 0, 10), reg(1, "a", "v2", 20, 30));
        CheckResult r = check(h, everywhere(Map.of(key("a"), "v1")));
        assertThat(r.verdict().status()).isEqualTo(Verdict.Status.FAIL);
        assertThat(r.details().get(0)).startsWith("WRONG VALUE: svc/a on n1 is v1").contains(":= v2");
    }

    @Test
    void failedWriteAndUnknownInstanceMustNotAppear() {
        History h = history(regFail(1, "a", "v1", 0, 10));
        CheckResult r = check(h, everywhere(Map.of(key("a"), "v1", key("z"), "?")));
        assertThat(r.verdict().status()).isEqualTo(Verdict.Status.FAIL);
        assertThat(r.details()).hasSize(6);
        assertThat(checker.check(h, Map.of(key("z"), "?"), everywhere(Map.of(key("z"), "?"))).verdict().passed())
                .isTrue();
    }

    @Test
    void apOperationsAreNotCheckedHere() {
        Op ap = Ops.op(1, OpKind.REGISTER, Mode.AP, "a", java.util.Optional.of("v"), 0, 10, Outcome.OK);
        assertThat(check(history(ap), everywhere(Map.of())).verdict().passed()).isTrue();
    }

    @Test
    void noFinalStateIsInconclusive() {
        assertThat(check(history(reg(1, "a", "v1", 0, 10)), Map.of()).verdict().status())
                .isEqualTo(Verdict.Status.INCONCLUSIVE);
    }
}
