package dev.nacre.cluster.check;

import static dev.nacre.cluster.check.Ops.key;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.cluster.check.ConvergenceChecker.Sample;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class ConvergenceCheckerTest {
    private static final long MS = 1_000_000L;
    private static final long HEAL = 1_000 * MS;
    private static final Set<String> NODES = Set.of("n1", "n2", "n3");
    private final ConvergenceChecker checker = new ConvergenceChecker(Duration.ofMillis(500));

    private static final Map<InstanceKey, String> FULL = Map.of(key("a"), "1", key("b"), "1");
    private static final Map<InstanceKey, String> PARTIAL = Map.of(key("a"), "1");

    private static Sample s(String node, long msAfterHeal, Map<InstanceKey, String> view) {
        return new Sample(node, HEAL + msAfterHeal * MS, view);
    }

    private ConvergenceChecker.Result check(List<Sample> samples, Set<InstanceKey> beating) {
        ConvergenceChecker.Result r = checker.check(HEAL, NODES, samples, beating);
        System.out.println(r.report());
        return r;
    }

    @Test
    void convergesWithinBoundPasses() {
        ConvergenceChecker.Result r = check(List.of(
                new Sample("n3", HEAL - 5 * MS, Map.of()),   // before the heal: ignored
                s("n1", 0, FULL), s("n2", 0, PARTIAL), s("n3", 0, FULL),
                s("n1", 100, FULL), s("n2", 100, PARTIAL), s("n3", 100, FULL),
                s("n1", 200, FULL), s("n2", 200, FULL), s("n3", 200, FULL),
                s("n1", 300, FULL), s("n2", 300, FULL), s("n3", 300, FULL)), Set.of(key("a"), key("b")));
        assertThat(r.verdict().passed()).as(r.report()).isTrue();
        assertThat(r.afterHeal()).contains(Duration.ofMillis(200));
        assertThat(r.verdict().line()).startsWith("PASS: 3 nodes converged 200.0 ms after the heal");
    }

    @Test
    void notConvergedWithinBoundFails() {
        ConvergenceChecker.Result r = check(List.of(
                s("n1", 0, FULL), s("n2", 0, PARTIAL), s("n3", 0, FULL),
                s("n1", 600, FULL), s("n2", 600, PARTIAL), s("n3", 600, FULL),
                s("n1", 900, FULL), s("n2", 900, FULL), s("n3", 900, FULL)), Set.of());
        assertThat(r.verdict().status()).isEqualTo(Verdict.Status.FAIL);
        assertThat(r.verdict().reason()).contains("first equal at +900.0 ms");
        assertThat(r.details().get(0)).startsWith("at the bound, n2 (+0.0 ms) differs: -svc/b");
    }

    @Test
    void neverEqualFails() {
        ConvergenceChecker.Result r = check(List.of(
                s("n1", 0, FULL), s("n2", 0, PARTIAL), s("n3", 0, FULL),
                s("n1", 700, FULL), s("n2", 700, Map.of(key("a"), "1", key("b"), "2")), s("n3", 700, FULL)), Set.of());
        assertThat(r.verdict().status()).isEqualTo(Verdict.Status.FAIL);
        assertThat(r.verdict().reason()).contains("never equal");
        assertThat(r.report()).contains("svc/b=2 (others: 1)");
    }

    @Test
    void beatingInstanceMissingFails() {
        ConvergenceChecker.Result r = check(List.of(
                s("n1", 0, PARTIAL), s("n2", 0, PARTIAL), s("n3", 0, PARTIAL)), Set.of(key("a"), key("b")));
        assertThat(r.verdict().status()).isEqualTo(Verdict.Status.FAIL);
        assertThat(r.verdict().reason()).startsWith("3 beating instance(s) missing");
    }

    @Test
    void divergingAgainAtTheEndFails() {
        ConvergenceChecker.Result r = check(List.of(
                s("n1", 0, FULL), s("n2", 0, FULL), s("n3", 0, FULL),
                s("n1", 700, FULL), s("n2", 700, PARTIAL), s("n3", 700, FULL)), Set.of());
        assertThat(r.verdict().status()).isEqualTo(Verdict.Status.FAIL);
        assertThat(r.equalAtEnd()).isFalse();
        assertThat(r.report()).contains("diverged again at +700.0 ms (n2)");
    }

    @Test
    void silentNodeOrTooShortSamplingIsInconclusive() {
        assertThat(check(List.of(s("n1", 0, FULL), s("n2", 0, FULL)), Set.of()).verdict().status())
                .isEqualTo(Verdict.Status.INCONCLUSIVE);
        assertThat(check(List.of(s("n1", 0, FULL), s("n2", 0, PARTIAL), s("n3", 100, FULL)), Set.of())
                .verdict().status()).isEqualTo(Verdict.Status.INCONCLUSIVE);
    }
}
