package dev.nacre.cluster.check;

import static dev.nacre.cluster.check.Ops.history;
import static dev.nacre.cluster.check.Ops.opAt;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.cluster.check.LivenessChecker.CpDisruption;
import dev.nacre.cluster.check.LivenessChecker.NodeOutage;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class LivenessCheckerTest {
    private static final long MS = 1_000_000L;
    private static final long KILL = 10_000 * MS;
    private static final CpDisruption LEADER_KILLED = new CpDisruption("leader n1 killed", KILL, Set.of("n2", "n3"));
    private final LivenessChecker checker = new LivenessChecker(Duration.ofSeconds(5));

    private static Op cp(String node, long invokeMs, long completeMs, Outcome o) {
        return opAt(1, node, OpKind.REGISTER, Mode.CP, "a", Optional.of("v" + invokeMs), invokeMs * MS,
                completeMs * MS, o);
    }

    private static Op ap(String node, long invokeMs, long completeMs, Outcome o) {
        return opAt(2, node, OpKind.REGISTER, Mode.AP, "e", Optional.of("v" + invokeMs), invokeMs * MS,
                completeMs * MS, o);
    }

    private CheckResult check(History h, List<NodeOutage> outages) {
        CheckResult r = checker.check(h, List.of(LEADER_KILLED), outages);
        System.out.println(r.report());
        return r;
    }

    @Test
    void cpWritesResumeWithinBoundPasses() {
        History h = history(cp("n1", 9_000, 9_010, Outcome.OK),
                cp("n2", 10_000, 13_000, Outcome.UNKNOWN), cp("n2", 13_000, 13_500, Outcome.OK),
                ap("n2", 10_000, 10_001, Outcome.OK), ap("n3", 11_000, 11_001, Outcome.OK));
        CheckResult r = check(h, List.of());
        assertThat(r.verdict().passed()).as(r.report()).isTrue();
        assertThat(r.verdict().line()).contains("within 3500.0 ms").contains("2 AP writes on live nodes all OK");
    }

    @Test
    void cpWritesResumingTooLateFails() {
        History h = history(cp("n2", 10_000, 14_000, Outcome.UNKNOWN), cp("n3", 14_000, 16_000, Outcome.OK));
        CheckResult r = check(h, List.of());
        assertThat(r.verdict().status()).isEqualTo(Verdict.Status.FAIL);
        assertThat(r.verdict().reason()).contains("first OK after +6000.0 ms");
    }

    @Test
    void cpWritesNeverResumingFails() {
        History h = history(cp("n2", 10_000, 13_000, Outcome.UNKNOWN), cp("n2", 13_000, 16_000, Outcome.UNKNOWN),
                cp("n1", 10_500, 10_600, Outcome.OK));
        CheckResult r = check(h, List.of());
        assertThat(r.verdict().status()).isEqualTo(Verdict.Status.FAIL);
        assertThat(r.verdict().reason()).contains("none OK at all").contains("UNKNOWN=2");
    }

    /**
     * Issue 11 §4: the run ended inside the bound and its only writes were definite refusals (4xx):
     * nothing shows the majority failed to recover, so the check must not say FAIL.
     */
    @Test
    void onlyRefusalsBeforeTheRunEndsAreTooLittleEvidence() {
        History h = history(cp("n2", 10_500, 10_520, Outcome.FAIL), cp("n3", 12_000, 13_000, Outcome.UNKNOWN),
                cp("n3", 14_000, 14_010, Outcome.FAIL));
        CheckResult r = check(h, List.of());
        assertThat(r.verdict().status()).as(r.report()).isEqualTo(Verdict.Status.INCONCLUSIVE);
        assertThat(r.verdict().reason()).contains("too little evidence").contains("last ended at +4010.0 ms")
                .contains("FAIL=2");
    }

    @Test
    void noCpAttemptOnTheMajorityIsInconclusive() {
        History h = history(cp("n1", 10_500, 10_600, Outcome.FAIL));
        assertThat(check(h, List.of()).verdict().status()).isEqualTo(Verdict.Status.INCONCLUSIVE);
    }

    @Test
    void apWriteFailingOnALiveNodeFails() {
        History h = history(cp("n2", 10_000, 10_500, Outcome.OK),
                ap("n1", 9_000, 9_001, Outcome.OK), ap("n3", 10_100, 10_200, Outcome.UNKNOWN));
        CheckResult r = check(h, List.of());
        assertThat(r.verdict().status()).isEqualTo(Verdict.Status.FAIL);
        assertThat(r.verdict().reason()).startsWith("1 of 2 AP writes on live nodes not OK");
    }

    @Test
    void apWritesToADownNodeAreExcused() {
        History h = history(cp("n2", 10_000, 10_500, Outcome.OK),
                ap("n1", 9_990, 10_100, Outcome.UNKNOWN), ap("n1", 10_200, 10_201, Outcome.FAIL),
                ap("n1", 20_000, 20_001, Outcome.OK));
        CheckResult r = check(h, List.of(new NodeOutage("n1", KILL, 15_000 * MS)));
        assertThat(r.verdict().passed()).as(r.report()).isTrue();
    }
}
