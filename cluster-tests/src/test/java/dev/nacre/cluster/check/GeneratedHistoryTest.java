package dev.nacre.cluster.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Linearizable histories from {@link RegistrySimulator} pass; one injected stale read fails. */
class GeneratedHistoryTest {
    private static final long BASE_SEED = Long.getLong("check.seed", System.nanoTime());
    private final LinearizabilityChecker checker = new LinearizabilityChecker();

    private static long seed(int i) {
        long s = BASE_SEED + i;
        System.out.println("seed " + s + " (replay: -Dcheck.seed=" + BASE_SEED + ")");
        return s;
    }

    @Test
    @Timeout(60)
    void simulatedLinearizableHistoriesPass() {
        thirtySimulatedHistoriesPass(0, 0.0);
    }

    @Test
    @Timeout(60)
    void simulatedHistoriesWithServiceReadsPass() {
        thirtySimulatedHistoriesPass(100, 0.15);
    }

    /** Thirty simulated histories from seed offset {@code first} on, with that share of service reads, all pass. */
    private void thirtySimulatedHistoriesPass(int first, double serviceReads) {
        for (int i = 0; i < 30; i++) {
            long seed = seed(first + i);
            History h = new RegistrySimulator(seed, 5, 200, 2, 4, 0.03, serviceReads).generate();
            LinearizabilityResult r = checker.check(h);
            assertThat(r.verdict().passed()).as("seed %d: %s", seed, r.report()).isTrue();
        }
    }

    @Test
    @Timeout(60)
    void oneInjectedStaleReadFails() {
        int injected = 0;
        for (int i = 0; i < 30; i++) {
            long seed = seed(200 + i);
            RegistrySimulator sim = new RegistrySimulator(seed, 5, 200, 2, 4, 0.03, 0.05);
            Optional<RegistrySimulator.Injected> inj = sim.injectStaleRead(sim.generate());
            if (inj.isEmpty()) {
                continue;
            }
            injected++;
            LinearizabilityResult r = checker.check(inj.get().history());
            assertThat(r.verdict().status()).as("seed %d, injected %s: %s", seed, inj.get().stale(), r.report())
                    .isEqualTo(Verdict.Status.FAIL);
            assertThat(r.failedKey()).as("seed %d", seed).contains(inj.get().stale().key());
            if (i == 0) {
                System.out.println(r.report());
            }
        }
        assertThat(injected).as("histories with a place to inject a stale read").isGreaterThan(20);
    }

    /** Checks {@code h}, printing the verdict and how long the check took. */
    private LinearizabilityResult timedCheck(History h) {
        long t0 = System.nanoTime();
        LinearizabilityResult r = checker.check(h);
        System.out.println(r.verdict().line() + " in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        return r;
    }

    /** {@code h}, generated from {@code seed}, is checked in time and found linearizable. */
    private void decidedLinearizable(long seed, History h) {
        LinearizabilityResult r = timedCheck(h);
        assertThat(r.inconclusive()).as(r.report()).isFalse();
        assertThat(r.verdict().passed()).as("seed %d: %s", seed, r.report()).isTrue();
    }

    @Test
    @Timeout(120)
    void tenClientsTwoThousandOpsFiftyKeysIsDecided() {
        long seed = seed(300);
        decidedLinearizable(seed, new RegistrySimulator(seed, 10, 2_000, 5, 10, 0.01, 0.02).generate());

        RegistrySimulator sim = new RegistrySimulator(seed, 10, 2_000, 5, 10, 0.01, 0.02);
        RegistrySimulator.Injected inj = sim.injectStaleRead(sim.generate()).orElseThrow();
        LinearizabilityResult bad = timedCheck(inj.history());
        assertThat(bad.verdict().status()).as("seed %d: %s", seed, bad.report()).isEqualTo(Verdict.Status.FAIL);
    }

    @Test
    @Timeout(120)
    void tenClientsOnOneHotInstanceIsDecided() {
        long seed = seed(400);
        decidedLinearizable(seed, new RegistrySimulator(seed, 10, 300, 1, 1, 0.02, 0.0).generate());
    }
}
