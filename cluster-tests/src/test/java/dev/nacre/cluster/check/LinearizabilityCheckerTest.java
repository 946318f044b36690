package dev.nacre.cluster.check;

import static dev.nacre.cluster.check.Ops.dereg;
import static dev.nacre.cluster.check.Ops.deregUnknown;
import static dev.nacre.cluster.check.Ops.history;
import static dev.nacre.cluster.check.Ops.read;
import static dev.nacre.cluster.check.Ops.readService;
import static dev.nacre.cluster.check.Ops.reg;
import static dev.nacre.cluster.check.Ops.regFail;
import static dev.nacre.cluster.check.Ops.regUnknown;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class LinearizabilityCheckerTest {
    private final LinearizabilityChecker checker = new LinearizabilityChecker();

    private LinearizabilityResult check(History h) {
        LinearizabilityResult r = checker.check(h);
        System.out.println(r.report());
        return r;
    }

    @Test
    void emptyHistoryPasses() {
        assertThat(check(history()).verdict().passed()).isTrue();
    }

    @Test
    void sequentialRegisterReadDeregisterReadPasses() {
        LinearizabilityResult r = check(history(
                reg(1, "a", "v1", 0, 10), read(2, "a", "v1", 20, 30),
                dereg(1, "a", 40, 50), read(2, "a", null, 60, 70),
                dereg(1, "a", 80, 90), read(2, "a", null, 100, 110)));
        assertThat(r.verdict().passed()).as(r.report()).isTrue();
        assertThat(r.verdict().line()).startsWith("PASS: linearizable: 1 instances, 6 CP ops");
    }

    @Test
    void staleReadAfterCompletedWriteFails() {
        LinearizabilityResult r = check(history(
                reg(1, "a", "v1", 0, 10), reg(1, "a", "v2", 20, 30), read(2, "a", "v1", 40, 50)));
        assertThat(r.verdict().status()).isEqualTo(Verdict.Status.FAIL);
        assertThat(r.failedKey()).contains(Ops.key("a"));
        assertThat(r.report()).contains("longest linearizable prefix: 2 ops").contains("state after that prefix: v2")
                .contains("READ svc/a -> v1");
    }

    @Test
    void readOfNeverWrittenValueFails() {
        assertThat(check(history(read(1, "a", "ghost", 0, 10))).verdict().status()).isEqualTo(Verdict.Status.FAIL);
    }

    @Test
    void readAbsentAfterCompletedRegisterFails() {
        assertThat(check(history(reg(1, "a", "v1", 0, 10), read(2, "a", null, 20, 30))).verdict().status())
                .isEqualTo(Verdict.Status.FAIL);
    }

    @Test
    void concurrentWriteAndReadAllowBothOrders() {
        assertThat(check(history(reg(1, "a", "v1", 0, 100), read(2, "a", "v1", 10, 20))).verdict().passed()).isTrue();
        assertThat(check(history(reg(1, "a", "v1", 0, 100), read(2, "a", null, 10, 20))).verdict().passed()).isTrue();
    }

    @Test
    void readsMayNotGoBackInTimeEvenWhileAWriteIsConcurrent() {
        // Once a read saw v1, a later read (in real time) cannot see the old absent state.
        LinearizabilityResult r = check(history(reg(1, "a", "v1", 0, 100),
                read(2, "a", "v1", 10, 20), read(3, "a", null, 30, 40)));
        assertThat(r.verdict().status()).isEqualTo(Verdict.Status.FAIL);
    }

    @Test
    void touchingIntervalsCountAsConcurrent() {
        assertThat(check(history(reg(1, "a", "v1", 0, 10), read(2, "a", null, 10, 20))).verdict().passed()).isTrue();
    }

    @Test
    void unknownWriteThatShowsUpLaterPasses() {
        LinearizabilityResult r = check(history(regUnknown(1, "a", "v1", 0),
                read(2, "a", null, 100, 110), read(2, "a", "v1", 1_000, 1_010), read(3, "a", "v1", 2_000, 2_010)));
        assertThat(r.verdict().passed()).as(r.report()).isTrue();
    }

    @Test
    void unknownWriteThatNeverShowsUpPasses() {
        assertThat(check(history(regUnknown(1, "a", "v1", 0), read(2, "a", null, 100, 110))).verdict().passed())
                .isTrue();
    }

    @Test
    void unknownWriteThatShowsUpDisappearsAndShowsUpAgainFails() {
        LinearizabilityResult r = check(history(regUnknown(1, "a", "v1", 0),
                read(2, "a", "v1", 100, 110), read(2, "a", null, 200, 210), read(3, "a", "v1", 300, 310)));
        assertThat(r.verdict().status()).as(r.report()).isEqualTo(Verdict.Status.FAIL);
        assertThat(r.report()).contains("READ svc/a -> v1").contains("UNKNOWN");
    }

    @Test
    void unknownDeregisterExplainsADisappearance() {
        LinearizabilityResult r = check(history(reg(1, "a", "v1", 0, 10), deregUnknown(1, "a", 20),
                read(2, "a", "v1", 100, 110), read(2, "a", null, 200, 210)));
        assertThat(r.verdict().passed()).as(r.report()).isTrue();
    }

    @Test
    void unknownWriteCannotTakeEffectBeforeItsInvocation() {
        LinearizabilityResult r = check(history(read(2, "a", "v1", 0, 10), regUnknown(1, "a", "v1", 20)));
        assertThat(r.verdict().status()).isEqualTo(Verdict.Status.FAIL);
    }

    @Test
    void failedWriteMustNeverShowUp() {
        LinearizabilityResult r = check(history(regFail(1, "a", "v1", 0, 10), read(2, "a", "v1", 20, 30)));
        assertThat(r.verdict().status()).isEqualTo(Verdict.Status.FAIL);
    }

    @Test
    void initialStateIsHonoured() {
        History h = history(read(1, "a", "v0", 0, 10));
        assertThat(checker.check(h, Map.of(Ops.key("a"), "v0")).verdict().passed()).isTrue();
        assertThat(checker.check(h).verdict().passed()).isFalse();
    }

    @Test
    void apOperationsAreIgnored() {
        Op apRead = Ops.op(1, OpKind.READ, Mode.AP, "a", Optional.of("stale"), 0, 10, Outcome.OK);
        assertThat(check(history(apRead)).verdict().passed()).isTrue();
    }

    @Test
    void keysAreIndependent() {
        LinearizabilityResult r = check(history(reg(1, "a", "v1", 0, 10), reg(1, "b", "w1", 20, 30),
                read(2, "a", "v1", 40, 50), read(2, "b", "w1", 40, 50), read(2, "c", null, 40, 50)));
        assertThat(r.verdict().passed()).isTrue();
        assertThat(r.keys()).isEqualTo(3);
    }

    @Test
    void serviceReadIsProjectedOnEveryInstance() {
        assertThat(check(history(reg(1, "a", "v1", 0, 10), reg(1, "b", "w1", 20, 30),
                readService(2, Map.of("a", "v1", "b", "w1"), 40, 50))).verdict().passed()).isTrue();
        // b is missing from a view taken after its register completed.
        LinearizabilityResult r = check(history(reg(1, "a", "v1", 0, 10), reg(1, "b", "w1", 20, 30),
                readService(2, Map.of("a", "v1"), 40, 50)));
        assertThat(r.verdict().status()).isEqualTo(Verdict.Status.FAIL);
        assertThat(r.failedKey()).contains(Ops.key("b"));
        assertThat(r.report()).contains("seen for b: <absent>");
    }

    @Test
    void serviceReadShowingANeverRegisteredInstanceFails() {
        LinearizabilityResult r = check(history(reg(1, "a", "v1", 0, 10),
                readService(2, Map.of("a", "v1", "ghost", "g"), 20, 30)));
        assertThat(r.verdict().status()).isEqualTo(Verdict.Status.FAIL);
        assertThat(r.failedKey()).contains(Ops.key("ghost"));
    }

    @Test
    void exhaustedBudgetIsInconclusiveNotAHang() {
        // 30 concurrent UNKNOWN writes of one value x; 15 rounds of (known write, read x), then
        // an impossible read. Each read of x needs its own UNKNOWN write just before it; proving
        // the last read impossible means trying which writes serve which reads (~C(30, k) sets);
        // a small memo limit stops the search.
        java.util.List<Op> ops = new java.util.ArrayList<>();
        for (int i = 0; i < 30; i++) {
            ops.add(regUnknown(i, "a", "x", i));
        }
        for (int i = 0; i < 15; i++) {
            ops.add(reg(99, "a", "w" + i, 100 + 40 * i, 110 + 40 * i));
            ops.add(read(98, "a", "x", 120 + 40 * i, 130 + 40 * i));
        }
        ops.add(read(98, "a", "nobody-wrote-this", 2_000, 2_010));
        LinearizabilityChecker tight = new LinearizabilityChecker(
                new LinearizabilityChecker.Limits(10_000, Duration.ofSeconds(5), 100_000), System::nanoTime);
        LinearizabilityResult r = tight.check(history(ops));
        System.out.println(r.report());
        assertThat(r.inconclusive()).as(r.report()).isTrue();
        assertThat(r.verdict().line()).startsWith("INCONCLUSIVE: 1 of 1 instances undecided");
    }

    @Test
    void unobservedUnknownWritesDoNotBlowUpTheSearch() {
        java.util.List<Op> ops = new java.util.ArrayList<>();
        for (int i = 0; i < 200; i++) {
            ops.add(regUnknown(i, "a", "v" + i, i));
        }
        ops.add(reg(999, "a", "w", 300, 310));
        ops.add(read(998, "a", "v7", 400, 410));
        ops.add(read(998, "a", "nobody-wrote-this", 500, 510));
        LinearizabilityResult r = check(history(ops));
        assertThat(r.verdict().status()).as(r.report()).isEqualTo(Verdict.Status.FAIL);
    }

    @Test
    void tooManyOpsOnOneKeyIsInconclusive() {
        LinearizabilityChecker tight = new LinearizabilityChecker(
                new LinearizabilityChecker.Limits(2, Duration.ofSeconds(5), 1_000), System::nanoTime);
        LinearizabilityResult r = tight.check(history(reg(1, "a", "v1", 0, 10), read(1, "a", "v1", 20, 30),
                read(1, "a", "v1", 40, 50)));
        assertThat(r.inconclusive()).isTrue();
        assertThat(r.verdict().reason()).contains("maxOpsPerKey");
    }

    @Test
    void timeBudgetIsInconclusive() {
        long[] now = {0};
        // Each clock reading advances a fake clock by one second: the budget is spent at once.
        LinearizabilityChecker tight = new LinearizabilityChecker(
                new LinearizabilityChecker.Limits(10, Duration.ofMillis(1), 1_000), () -> now[0] += 1_000_000_000L);
        LinearizabilityResult r = tight.check(history(reg(1, "a", "v1", 0, 10)));
        assertThat(r.inconclusive()).as(r.report()).isTrue();
        assertThat(r.verdict().reason()).contains("time budget");
    }
}
