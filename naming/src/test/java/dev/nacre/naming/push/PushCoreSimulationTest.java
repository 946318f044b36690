package dev.nacre.naming.push;

import static dev.nacre.naming.push.FakeRegistry.instance;
import static dev.nacre.naming.push.FakeRegistry.service;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.naming.model.ServiceKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * Random subscribes, unsubscribes, changes, acks, failures and time steps against the core, from
 * a printed seed ({@code -Dnacre.push.seed=N} replays one). Checked after every step: never two
 * pushes in flight for one subscription. At the end, once every push is acknowledged: every
 * subscriber holds the current list of its clusters.
 */
class PushCoreSimulationTest {
  private static final List<ServiceKey> SERVICES = List.of(service("s0"), service("s1"), service("s2"));
  private static final List<String> CLIENTS = List.of("c0", "c1", "c2", "c3");
  private static final List<Set<String>> FILTERS = List.of(Set.of(), Set.of("A"), Set.of("B"), Set.of("A", "B"));

  private record Key(String client, ServiceKey service) {}

  @RepeatedTest(20)
  @Timeout(value = 20, unit = TimeUnit.SECONDS)
  void subscribersEndWithTheCurrentListAndNeverHaveTwoPushesInFlight() {
    long seed = Long.getLong("nacre.push.seed", new Random().nextLong());
    System.out.println("PushCoreSimulationTest seed " + seed + " (replay with -Dnacre.push.seed=" + seed + ")");
    Random random = new Random(seed);
    FakeRegistry registry = new FakeRegistry();
    PushConfig config = new PushConfig(Duration.ofMillis(50), Duration.ofSeconds(5), Duration.ofMillis(100),
        Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(30));
    PushCore core = new PushCore("sim", config, registry);
    Map<Key, Set<String>> subscribed = new HashMap<>();
    Map<Key, Long> inFlight = new HashMap<>();
    Map<Key, String> acked = new HashMap<>();
    List<PushOrder> outstanding = new ArrayList<>();
    long now = 0;

    for (int step = 0; step < 3_000; step++) {
      int what = random.nextInt(100);
      String client = CLIENTS.get(random.nextInt(CLIENTS.size()));
      ServiceKey svc = SERVICES.get(random.nextInt(SERVICES.size()));
      Key key = new Key(client, svc);
      if (what < 8) {
        Set<String> filter = FILTERS.get(random.nextInt(FILTERS.size()));
        core.subscribe(svc, filter, RecordingTarget.acking(client), now);
        subscribed.put(key, filter);
        inFlight.remove(key);
        acked.remove(key);
      } else if (what < 11) {
        core.unsubscribe(svc, client);
        subscribed.remove(key);
        inFlight.remove(key);
      } else if (what < 40) {
        registry.put(instance(svc, random.nextBoolean() ? "A" : "B", random.nextInt(6)).withHealthy(random.nextBoolean()));
        core.serviceChanged(svc, now);
      } else if (what < 70 && !outstanding.isEmpty()) {
        PushOrder order = outstanding.remove(random.nextInt(outstanding.size()));
        Key of = new Key(order.clientId(), order.service());
        boolean current = inFlight.getOrDefault(of, -1L) == order.seq();
        if (random.nextInt(10) < 8) {
          core.acked(order, now);
          if (current) {
            acked.put(of, order.view().checksum());
          }
        } else if (core.failed(order, new RuntimeException("lost"), now)) {
          String dropped = order.clientId();
          subscribed.keySet().removeIf(k -> k.client().equals(dropped));
          inFlight.keySet().removeIf(k -> k.client().equals(dropped));
        }
        if (current) {
          inFlight.remove(of);
        }
      } else {
        now += random.nextInt(120);
      }
      for (PushOrder order : core.due(now)) {
        Key of = new Key(order.clientId(), order.service());
        assertThat(inFlight).as("seed %d step %d: second push in flight for %s", seed, step, of).doesNotContainKey(of);
        assertThat(subscribed).as("seed %d: push to an unsubscribed %s", seed, of).containsKey(of);
        inFlight.put(of, order.seq());
        outstanding.add(order);
      }
    }

    // Quiesce: acknowledge everything until nothing more is due.
    for (int round = 0; round < 100 && !(outstanding.isEmpty() && core.nextDueAt() == Long.MAX_VALUE); round++) {
      for (PushOrder order : outstanding) {
        Key of = new Key(order.clientId(), order.service());
        if (inFlight.getOrDefault(of, -1L) == order.seq()) {
          acked.put(of, order.view().checksum());
          inFlight.remove(of);
        }
        core.acked(order, now);
      }
      outstanding.clear();
      now += 2_000;
      for (PushOrder order : core.due(now)) {
        inFlight.put(new Key(order.clientId(), order.service()), order.seq());
        outstanding.add(order);
      }
    }
    assertThat(outstanding).as("seed %d: pushes never stop", seed).isEmpty();
    for (Map.Entry<Key, Set<String>> sub : subscribed.entrySet()) {
      String current = registry.view(sub.getKey().service(), sub.getValue()).checksum();
      assertThat(acked.get(sub.getKey())).as("seed %d: %s holds the current list", seed, sub.getKey()).isEqualTo(current);
    }
    assertThat(core.size()).isEqualTo(subscribed.size());
  }
}
