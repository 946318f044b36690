package dev.nacre.cluster.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The simulator's final model, read from three nodes, passes; dropping or reviving an instance fails. */
class GeneratedDurabilityTest {
    private static final long SEED = CheckSeed.announced();

    @Test
    @Timeout(60)
    void finalStateOfSimulatedHistoriesPassesAndTamperingFails() {
        DurabilityChecker checker = new DurabilityChecker();
        Random random = new Random(SEED);
        int tamperings = 0;
        for (int i = 0; i < 20; i++) {
            long seed = SEED + i;
            RegistrySimulator sim = new RegistrySimulator(seed, 5, 200, 2, 20, i % 2 == 0 ? 0.0 : 0.01, 0.0);
            History h = sim.generate();
            Map<InstanceKey, String> state = sim.finalState();
            CheckResult good = checker.check(h, Map.of("n1", state, "n2", state, "n3", state));
            assertThat(good.verdict().passed()).as("seed %d: %s", seed, good.report()).isTrue();

            // The last write of every instance in real time, when nothing could follow it.
            Map<InstanceKey, List<Op>> byKey = h.byInstance();
            for (Map.Entry<InstanceKey, List<Op>> e : byKey.entrySet()) {
                List<Op> writes = e.getValue().stream().filter(o -> o.kind().isWrite()).toList();
                if (writes.isEmpty()) {
                    continue;
                }
                Op last = writes.get(writes.size() - 1);
                boolean alone = last.outcome() == Outcome.OK
                        && writes.stream().allMatch(w -> w == last || w.precedes(last));
                if (!alone) {
                    continue;
                }
                Map<InstanceKey, String> tampered = new HashMap<>(state);
                if (last.kind() == OpKind.REGISTER) {
                    tampered.remove(e.getKey());
                } else {
                    tampered.put(e.getKey(), "revived");
                }
                String node = "n" + (1 + random.nextInt(3));
                Map<String, Map<InstanceKey, String>> finals = new HashMap<>(Map.of("n1", state, "n2", state, "n3", state));
                finals.put(node, tampered);
                CheckResult bad = checker.check(h, finals);
                tamperings++;
                assertThat(bad.verdict().status()).as("seed %d, %s on %s", seed, e.getKey(), node)
                        .isEqualTo(Verdict.Status.FAIL);
                assertThat(bad.verdict().reason()).contains(last.kind() == OpKind.REGISTER ? "LOST" : "RESURRECTED");
            }
        }
        System.out.println(tamperings + " tampered final states, all caught");
        assertThat(tamperings).isGreaterThan(20);
    }
}
