package dev.nacre.cluster;

import static dev.nacre.cluster.NacosClients.instance;

import com.alibaba.nacos.api.naming.NamingService;
import com.alibaba.nacos.api.naming.pojo.Instance;
import dev.nacre.cluster.check.InstanceKey;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node restarts under churn from official Nacos 2.x clients (issue 10): twelve clients, a
 * quarter of them persistent, register and deregister while a random node is stopped and
 * started again a moment later, {@link #ROUNDS} times with a round seed each. The restarted node
 * must load the others' instances before it is ready, and once it is, every node's ephemeral
 * view must equal what the clients asked for within {@link #SAME_BOUND}. docs/FAULTS.md.
 */
@Tag("scenario")
@Tag("quick")
@Timeout(300)
class NacosClientRestartScenarioTest {
  static final int ROUNDS = Integer.getInteger("nacre.restart.rounds", 10);
  private static final int CLIENTS = 12;
  private static final int SERVICES = 8;
  private static final int FIRST_PORT = 7301;
  /** Every node lists the clients' ephemeral instances within this of the restarted node being ready. */
  static final Duration SAME_BOUND = Duration.ofSeconds(5);
  /** Between two operations of one churn thread. */
  private static final Duration CHURN_PAUSE = Duration.ofMillis(40);

  @TempDir Path dir;

  /** One client: the service and port of its instance, and whether it is persistent. */
  private record Client(int index, NamingService naming, String service, int port, boolean persistent) {
    InstanceKey key() {
      return InstanceKey.of(service, "127.0.0.1:" + port);
    }
  }

  @Test
  void restartUnderChurn() throws Exception {
    try (Scenario s = Scenario.builder("nacos-client-restart").start(dir); NacosClients nacos = new NacosClients()) {
      String[] servers = s.all().stream().map(s.cluster()::address).toArray(String[]::new);
      List<String> services = new ArrayList<>();
      for (int k = 0; k < SERVICES; k++) {
        services.add("rs-" + k);
      }
      List<Client> clients = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        clients.add(new Client(c, nacos.connect(servers), services.get(c % SERVICES), FIRST_PORT + c, c % 4 == 3));
      }
      // What the clients asked for last: their redo brings every node there, even for a call that failed.
      Map<InstanceKey, String> intent = new ConcurrentHashMap<>();
      List<Long> sameMs = new ArrayList<>();
      List<String> failures = new ArrayList<>();
      for (int round = 0; round < ROUNDS; round++) {
        long roundSeed = s.seed() * 31 + round;
        Random random = new Random(roundSeed);
        int victim = s.all().get(random.nextInt(s.size()));
        CountDownLatch stopChurn = new CountDownLatch(1);
        List<Thread> churn = List.of(
            churnThread(clients, false, intent, new Random(random.nextLong()), stopChurn, round),
            churnThread(clients, true, intent, new Random(random.nextLong()), stopChurn, round));
        churn.forEach(Thread::start);
        s.runFor(Duration.ofMillis(300 + random.nextInt(700)));
        s.kill(victim);
        s.runFor(Duration.ofMillis(500 + random.nextInt(1500)));
        long restartAt = System.nanoTime();
        s.restart(victim);
        long ready = System.nanoTime();
        stopChurn.countDown();
        for (Thread t : churn) {
          t.join(TimeUnit.SECONDS.toMillis(30));
        }
        Map<InstanceKey, String> truth = new TreeMap<>(intent);
        var same = Polling.poll(SAME_BOUND, () -> s.all().stream().allMatch(
            i -> ApConvergence.view(s.cluster(), i, services).equals(truth))
            ? java.util.Optional.of(System.nanoTime()) : java.util.Optional.empty());
        long ms = same.map(t -> TimeUnit.NANOSECONDS.toMillis(t - ready)).orElse(-1L);
        s.note("round %d (seed %d): node %d restarted, ready in %d ms; every view equal to the clients' %d"
            + " instances %d ms after", round, roundSeed, victim, TimeUnit.NANOSECONDS.toMillis(ready - restartAt),
            truth.size(), ms);
        if (same.isEmpty()) {
          Map<String, Object> views = new TreeMap<>();
          for (int i : s.all()) {
            Map<InstanceKey, String> v = ApConvergence.view(s.cluster(), i, services);
            views.put(s.cluster().address(i) + (i == victim ? " (restarted)" : ""), diff(truth, v));
          }
          failures.add("round " + round + " (seed " + roundSeed + ", node " + victim + " restarted): " + views);
        } else {
          sameMs.add(ms);
        }
      }
      s.expect("same-after-restart", failures.isEmpty(), failures.isEmpty()
          ? "in each of " + ROUNDS + " restarts every node listed exactly the clients' ephemeral instances within "
              + sameMs.stream().mapToLong(Long::longValue).max().orElse(0) + " ms of the restarted node being ready"
              + " (bound " + SAME_BOUND.toMillis() + " ms)"
          : "views differ from the clients' instances " + SAME_BOUND.toMillis() + " ms after the restarted node"
              + " was ready (missing / extra / changed per node): " + failures);
      s.finish();
    }
  }

  /** Registers and deregisters the instances of one kind of client at random until told to stop. */
  private static Thread churnThread(List<Client> clients, boolean persistent, Map<InstanceKey, String> intent,
      Random random, CountDownLatch stopChurn, int round) {
    List<Client> mine = clients.stream().filter(c -> c.persistent() == persistent).toList();
    Thread t = new Thread(() -> {
      int op = 0;
      do {
        Client c = mine.get(random.nextInt(mine.size()));
        boolean register = random.nextInt(3) != 0;
        String value = "c" + c.index() + "-r" + round + "-" + op++;
        Instance in = instance(c.port(), null, 1.0, Map.of(WorkloadClient.VALUE_KEY, value));
        in.setEphemeral(!persistent);
        if (!persistent) {
          // Before the call: a call that fails is redone by the client once it reconnects.
          if (register) {
            intent.put(c.key(), value);
          } else {
            intent.remove(c.key());
          }
        }
        try {
          if (register) {
            c.naming().registerInstance(c.service(), in);
          } else {
            c.naming().deregisterInstance(c.service(), in);
          }
        } catch (Exception e) {
          // the node went away under the call, or CP writes had no leader: part of the scenario
        }
      } while (!awaitQuietly(stopChurn, CHURN_PAUSE)); // a pause between calls that ends at once on stop
    }, "churn-" + (persistent ? "persistent" : "ephemeral"));
    t.setDaemon(true);
    return t;
  }

  private static boolean awaitQuietly(CountDownLatch latch, Duration timeout) {
    try {
      return latch.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    }
  }

  /** What a node's view lacks, holds in excess, or holds with another value than the truth. */
  private static String diff(Map<InstanceKey, String> truth, Map<InstanceKey, String> view) {
    List<String> missing = new ArrayList<>();
    List<String> extra = new ArrayList<>();
    List<String> changed = new ArrayList<>();
    truth.forEach((k, v) -> {
      if (!view.containsKey(k)) {
        missing.add(k.toString());
      } else if (!view.get(k).equals(v)) {
        changed.add(k + "=" + view.get(k) + " not " + v);
      }
    });
    view.keySet().stream().filter(k -> !truth.containsKey(k)).forEach(k -> extra.add(k.toString()));
    return "missing " + missing + " extra " + extra + " changed " + changed;
  }
}
