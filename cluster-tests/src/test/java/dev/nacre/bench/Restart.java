package dev.nacre.bench;

import static org.awaitility.Awaitility.await;

import com.alibaba.nacos.api.PropertyKeyConst;
import com.alibaba.nacos.api.exception.NacosException;
import com.alibaba.nacos.api.naming.NamingFactory;
import com.alibaba.nacos.api.naming.NamingService;
import com.alibaba.nacos.api.naming.pojo.Instance;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * Figure 5: {@code kill -9} of the last node, then {@code scripts/cluster.sh start-node}. Two clocks
 * from the moment start-node is launched: until the node's readiness endpoint answers 200, and
 * until its instance counts equal a survivor's. A node that says ready while it holds fewer
 * instances than a survivor served a partial registry: that round counts as an error. Optionally
 * preloads persistent instances (HTTP, 8 writers) and ephemeral ones (official Nacos clients,
 * batch registration of 100 per service, connected to the other nodes and kept open through the
 * restarts). Instances have loopback addresses, and the persistent services the health checker
 * NONE (as in figure 2), so that no node spends the restart probing addresses nobody listens on.
 * With churn writers ({@link Churn}, on the other nodes, from 10 s before the first kill through all
 * rounds) the counts move while they are compared: a node counts as partial, or complete, within one
 * instance per writer.
 */
final class Restart {
  private static final int INSTANCES_PER_SERVICE = 100;
  private static final int WRITERS = 8;
  private static final String PERSISTENT_SERVICE = "bench-restart-p-";
  private static final long PRELOAD_LIMIT_NANOS = TimeUnit.MINUTES.toNanos(20);
  private static final long READY_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(120);
  /** How long the churn runs before the first kill. */
  private static final long CHURN_BEFORE_KILL_NANOS = TimeUnit.SECONDS.toNanos(10);

  private final Http http;
  private final List<String> nodes;
  private final ClusterScript script;
  private final ObjectMapper json = new ObjectMapper();

  Restart(Http http, List<String> nodes, String clusterScript, String dir) {
    this.http = http;
    this.nodes = nodes;
    this.script = new ClusterScript(clusterScript, dir);
  }

  void run(int rounds, int persistent, int ephemeral, int churnWriters, String series, Path out) throws Exception {
    List<NamingService> clients = new ArrayList<>();
    Churn churn = null;
    try {
      long t0 = System.nanoTime();
      preloadPersistent(persistent);
      preloadEphemeral(ephemeral, clients);
      if (persistent + ephemeral > 0) {
        System.out.printf("preloaded %d persistent and %d ephemeral instances in %d s%n", persistent, ephemeral,
            TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0));
      }
      int restarted = nodes.size() - 1;
      String survivor = nodes.get(0);
      Counts before = awaitStableCounts(survivor);
      if (churnWriters > 0) {
        churn = new Churn(http, nodes.subList(0, restarted), churnWriters).start(new CpWrites(http, "churn"));
        // As in issue 10's scenario (the kill 10 s into the churn): the first round then restarts
        // a node beside a steady load, not beside the load's own start on every JVM.
        Churn running = churn;
        long steadyAt = System.nanoTime() + CHURN_BEFORE_KILL_NANOS;
        await().atMost(Duration.ofNanos(CHURN_BEFORE_KILL_NANOS).plusSeconds(20)).pollInterval(Duration.ofMillis(100))
            .until(() -> System.nanoTime() >= steadyAt && running.operations() > 0);
      }
      Counts slack = churn == null ? new Counts(0, 0) : new Counts(churn.persistentWriters(), churn.ephemeralWriters());
      Histogram ready = Results.newHistogram();
      Histogram complete = Results.newHistogram();
      long partial = 0;
      List<String> perRound = new ArrayList<>();
      for (int round = 0; round < rounds; round++) {
        long pid = script.pid(restarted + 1);
        script.run("kill", restarted + 1);
        ClusterScript.awaitExit(pid);
        long start = System.nanoTime();
        Process starting = script.launch("start-node", restarted + 1);
        String node = nodes.get(restarted);
        long readyAt = pollUntil(start, () -> http.get(node + "/nacos/v1/console/health/readiness").ok());
        // Compared with the survivor's counts read just before: instances that expire meanwhile
        // (the earlier figures' ephemeral ones have no heartbeats) change both.
        Counts atReady = counts(node);
        Counts survivorAtReady = counts(survivor);
        long completeAt = pollUntil(start, () -> within(counts(node), counts(survivor), slack));
        script.awaitSuccess(starting, "start-node", restarted + 1);
        boolean servedPartial = atReady.persistent < survivorAtReady.persistent - slack.persistent
            || atReady.ephemeral < survivorAtReady.ephemeral - slack.ephemeral;
        partial += servedPartial ? 1 : 0;
        ready.recordValue(Math.max(1, (readyAt - start) / 1000));
        complete.recordValue(Math.max(1, (completeAt - start) / 1000));
        System.out.printf("round %d: node %d ready after %d ms (holding %s; node 1 %s), complete after %d ms%n",
            round + 1, restarted + 1, (readyAt - start) / 1_000_000, atReady, survivorAtReady,
            (completeAt - start) / 1_000_000);
        perRound.add((readyAt - start) / 1_000_000 + "/" + (completeAt - start) / 1_000_000);
      }
      String held = before.persistent + " persistent + " + before.ephemeral + " ephemeral instances"
          + (churn == null ? "" : ", " + churnWriters + " churn writers (" + slack + " instances of slack)");
      String churned = churn == null ? "" : "; " + churn.summary();
      Results.append(out, Results.row("5-restart-ready", series, ready, partial,
          "start-node -> readiness 200, holding " + held + "; errors = rounds ready with a partial registry"));
      Results.append(out, Results.row("5-restart-complete", series, complete, 0,
          "start-node -> counts equal a survivor's; rounds ready/complete ms: " + String.join(",", perRound) + churned));
    } finally {
      if (churn != null) {
        churn.close();
      }
      for (NamingService c : clients) {
        try {
          c.shutDown();
        } catch (NacosException | RuntimeException e) {
          // Best effort: the run is over.
        }
      }
    }
  }

  private void preloadPersistent(int count) throws Exception {
    if (count <= 0) {
      return;
    }
    long deadline = System.nanoTime() + PRELOAD_LIMIT_NANOS;
    CpWrites services = new CpWrites(http, "preload");
    for (long s = 0; s * INSTANCES_PER_SERVICE < count; s++) {
      services.prepareService(nodes.get(0), PERSISTENT_SERVICE + s);
    }
    AtomicLong next = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    try {
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        String node = nodes.get(w % nodes.size());
        writers.add(pool.submit(() -> {
          for (long k = next.getAndIncrement(); k < count && System.nanoTime() < deadline; k = next.getAndIncrement()) {
            String url = node + "/nacos/v1/ns/instance?serviceName=" + PERSISTENT_SERVICE + k / INSTANCES_PER_SERVICE
                + "&ip=" + loopbackIp(1, k) + "&port=8080&ephemeral=false";
            if (!http.send("POST", url).ok()) {
              failed.incrementAndGet();
            }
          }
        }));
      }
      for (Future<?> f : writers) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    if (next.get() < count || failed.get() > 0) {
      throw new IllegalStateException("preload of " + count + " persistent instances: " + failed.get()
          + " failed, " + Math.max(0, count - next.get()) + " not sent within the time limit");
    }
  }

  private void preloadEphemeral(int count, List<NamingService> clients) throws NacosException {
    if (count <= 0) {
      return;
    }
    // Clients stay off the restarted (last) node, so that their instances do not move meanwhile.
    for (int c = 0; c < WRITERS; c++) {
      Properties p = new Properties();
      p.setProperty(PropertyKeyConst.SERVER_ADDR, nodes.get(c % (nodes.size() - 1)).replace("http://", ""));
      clients.add(NamingFactory.createNamingService(p));
    }
    int services = (count + INSTANCES_PER_SERVICE - 1) / INSTANCES_PER_SERVICE;
    long deadline = System.nanoTime() + PRELOAD_LIMIT_NANOS;
    for (int s = 0; s < services && System.nanoTime() < deadline; s++) {
      List<Instance> batch = new ArrayList<>();
      for (int i = 0; i < INSTANCES_PER_SERVICE && (long) s * INSTANCES_PER_SERVICE + i < count; i++) {
        Instance instance = new Instance();
        instance.setIp(loopbackIp(64, (long) s * INSTANCES_PER_SERVICE + i));
        instance.setPort(8080);
        batch.add(instance);
      }
      clients.get(s % clients.size()).batchRegisterInstance("bench-restart-e-" + s, "DEFAULT_GROUP", batch);
    }
  }

  /** The k-th address of a range of 127.0.0.0/8 (loopback) starting at 127.{@code second}.0.0. */
  private static String loopbackIp(int second, long k) {
    return "127." + (second + (k >> 16)) + "." + (k >> 8 & 0xff) + "." + (k & 0xff);
  }

  record Counts(long persistent, long ephemeral) {
    @Override
    public String toString() {
      return persistent + "p/" + ephemeral + "e";
    }
  }

  /** True when {@code node}'s counts are at most {@code slack} away from {@code survivor}'s, and read. */
  private static boolean within(Counts node, Counts survivor, Counts slack) {
    return node.persistent >= 0 && survivor.persistent >= 0
        && Math.abs(node.persistent - survivor.persistent) <= slack.persistent
        && Math.abs(node.ephemeral - survivor.ephemeral) <= slack.ephemeral;
  }

  /** Counts on {@code node} once two reads 1 s apart agree (replication of the preload settled). */
  private Counts awaitStableCounts(String node) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    Counts last = counts(node);
    while (System.nanoTime() < deadline) {
      CpWrites.sleepMs(1000);
      Counts now = counts(node);
      if (now.equals(last) && now.persistent >= 0) {
        return now;
      }
      last = now;
    }
    throw new IllegalStateException("instance counts on " + node + " did not settle within 60 s: " + last);
  }

  private Counts counts(String node) {
    Http.Reply r = http.get(node + "/nacos/v1/ns/operator/metrics");
    if (!r.ok()) {
      return new Counts(-1, -1);
    }
    try {
      JsonNode m = json.readTree(r.body());
      return new Counts(m.path("persistentInstanceCount").asLong(-1), m.path("ephemeralInstanceCount").asLong(-1));
    } catch (IOException e) {
      return new Counts(-1, -1);
    }
  }

  /** Polls every 10 ms until the condition holds; returns System.nanoTime() then. */
  private static long pollUntil(long start, java.util.function.BooleanSupplier condition) {
    while (System.nanoTime() - start < READY_LIMIT_NANOS) {
      if (condition.getAsBoolean()) {
        return System.nanoTime();
      }
      CpWrites.sleepMs(10);
    }
    throw new IllegalStateException("condition not met within " + TimeUnit.NANOSECONDS.toSeconds(READY_LIMIT_NANOS) + " s");
  }
}
