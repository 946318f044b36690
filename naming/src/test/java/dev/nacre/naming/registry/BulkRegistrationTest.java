package dev.nacre.naming.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Registering many instances into one service costs O(log n) each, not a copy and a sort of the
 * whole service per write (which made 10,000 registrations quadratic).
 */
@Timeout(120)
class BulkRegistrationTest {
  static final ServiceKey SERVICE = new ServiceKey("public", "DEFAULT_GROUP", "bulk");

  @Test
  void tenThousandInstancesIntoOneServiceRegisterAtFullSpeed() {
    register(2_000); // warm-up
    long small = Long.MAX_VALUE;
    long large = Long.MAX_VALUE;
    for (int run = 0; run < 3; run++) {
      small = Math.min(small, register(2_000));
      large = Math.min(large, register(10_000));
    }
    System.out.printf("MEASURE index registration into one service: 2,000 in %.1f ms, 10,000 in %.1f ms%n",
        small / 1e6, large / 1e6);
    // Linear-logarithmic work is about 5.6x for 5x the instances, quadratic 25x. Loose bounds: the
    // machine is shared, but a copy-and-sort per write took minutes for 10,000.
    assertThat(Duration.ofNanos(large)).isLessThan(Duration.ofSeconds(10));
    assertThat((double) large / small).isLessThan(15.0);
  }

  @Test
  void instancesStaySortedAndFindableThroughRandomWrites() {
    RegistryIndex index = new RegistryIndex();
    TreeMap<String, Instance> expected = new TreeMap<>();
    Random random = new Random(42);
    for (int step = 0; step < 20_000; step++) {
      String cluster = "c" + random.nextInt(3);
      InstanceKey key = new InstanceKey(SERVICE, cluster, "10.0." + random.nextInt(4) + "." + random.nextInt(50),
          80 + random.nextInt(3));
      boolean ephemeral = random.nextInt(4) > 0;
      if (index.instance(key, !ephemeral).isPresent()) {
        continue; // one address is one kind
      }
      String id = sortKey(key, ephemeral);
      if (random.nextInt(3) == 0) {
        index.remove(key, ephemeral);
        expected.remove(id);
      } else {
        Instance i = new Instance(key, random.nextInt(10), random.nextBoolean(), true, ephemeral, Map.of());
        if (ephemeral) {
          index.putEphemeral(i);
        } else {
          index.putPersistent(i);
        }
        expected.put(id, i);
      }
      if (step % 997 == 0) {
        assertThat(index.snapshot(SERVICE).instances()).isSortedAccordingTo(ServiceSnapshot.ORDER);
      }
    }
    List<Instance> all = index.snapshot(SERVICE).instances();
    assertThat(all).isSortedAccordingTo(ServiceSnapshot.ORDER);
    assertThat(all).containsExactlyInAnyOrderElementsOf(expected.values());
    for (Instance i : expected.values()) {
      assertThat(index.instance(i.key(), i.ephemeral())).contains(i);
    }
    assertThat(index.snapshot(SERVICE).persistentInstances())
        .containsExactlyInAnyOrderElementsOf(expected.values().stream().filter(i -> !i.ephemeral()).toList());
  }

  private static String sortKey(InstanceKey key, boolean ephemeral) {
    return key.cluster() + "/" + key.ip() + "/" + key.port() + "/" + ephemeral;
  }

  private static long register(int count) {
    RegistryIndex index = new RegistryIndex();
    List<Instance> instances = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      InstanceKey key = new InstanceKey(SERVICE, "DEFAULT", "10." + (i / 65536) + "." + (i / 256 % 256) + "." + (i % 256), 8080);
      instances.add(new Instance(key, 1.0, true, true, true, Map.of("version", "1")));
    }
    long start = System.nanoTime();
    for (Instance i : instances) {
      index.putEphemeral(i);
    }
    long elapsed = System.nanoTime() - start;
    assertThat(index.snapshot(SERVICE).instances()).hasSize(count);
    return elapsed;
  }
}
