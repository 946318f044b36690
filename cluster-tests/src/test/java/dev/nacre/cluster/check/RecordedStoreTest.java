package dev.nacre.cluster.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Real threads on a linearizable in-memory store (ConcurrentHashMap), recorded with
 * {@link HistoryRecorder} and the system clock: the history must check as linearizable.
 */
class RecordedStoreTest {
    private static final long SEED = CheckSeed.announced();

    @Test
    @Timeout(60)
    void concurrentClientsOnAnAtomicStoreAreLinearizable() throws Exception {
        Map<InstanceKey, String> store = new ConcurrentHashMap<>();
        HistoryRecorder rec = new HistoryRecorder();
        int threads = 4;
        ReleasedTogether.run(threads, 30, process -> {
            Random random = new Random(SEED + process);
            for (int i = 0; i < 3_000; i++) {
                InstanceKey key = InstanceKey.of("svc", "127.0.0." + random.nextInt(5) + ":80");
                int r = random.nextInt(10);
                if (r < 4) {
                    String v = "p" + process + "-" + i;
                    HistoryRecorder.Pending p = rec.invoke(process, "n1", OpKind.REGISTER, Mode.CP, key,
                            Optional.of(v));
                    store.put(key, v);
                    p.ok();
                } else if (r < 5) {
                    HistoryRecorder.Pending p = rec.invoke(process, "n1", OpKind.DEREGISTER, Mode.CP, key,
                            Optional.empty());
                    store.remove(key);
                    p.ok();
                } else {
                    HistoryRecorder.Pending p = rec.invoke(process, "n1", OpKind.READ, Mode.CP, key,
                            Optional.empty());
                    p.okRead(Optional.ofNullable(store.get(key)));
                }
            }
        });
        History h = rec.history();
        LinearizabilityResult r = new LinearizabilityChecker().check(h);
        System.out.println(r.report());
        assertThat(r.verdict().passed()).as(r.report()).isTrue();
        assertThat(r.opsChecked()).isEqualTo(threads * 3_000);
    }
}
