package dev.nacre.naming.registry;

import static dev.nacre.naming.support.NamingFixture.SERVICE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.naming.ephemeral.EphemeralStore;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.support.MutableClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class RegistryIndexConcurrencyTest {

  @Test
  void concurrentWritersOfOneServiceLoseNothing() throws Exception {
    RegistryIndex index = new RegistryIndex();
    EphemeralStore store = new EphemeralStore("node-1", new MutableClock(Instant.EPOCH), index);
    int threads = 8;
    int perThread = 200;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      futures.add(pool.submit(() -> {
        start.await();
        for (int i = 0; i < perThread; i++) {
          InstanceKey key = new InstanceKey(SERVICE, "DEFAULT", "10.0." + thread + "." + (i % 250), 1000 + i);
          store.register(new Instance(key, 1, true, true, true, Map.of()));
          if (i % 2 == 1) {
            store.remove(key);
          }
          // Readers never see a torn service: the snapshot's list matches its own count.
          index.service(SERVICE).ifPresent(s -> assertThat(s.instances()).doesNotContainNull());
        }
        return null;
      }));
    }
    start.countDown();
    for (Future<?> f : futures) {
      f.get(30, TimeUnit.SECONDS);
    }
    pool.shutdown();
    assertThat(index.service(SERVICE).orElseThrow().instances()).hasSize(threads * perThread / 2);
    assertThat(store.records()).hasSize(threads * perThread / 2);
  }
}
