package dev.nacre.bench.memory;

import com.alibaba.nacos.api.PropertyKeyConst;
import com.alibaba.nacos.api.naming.NamingFactory;
import com.alibaba.nacos.api.naming.NamingService;
import com.alibaba.nacos.api.naming.pojo.Instance;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Heap per instance, measured from outside as an operator would: the live heap of every node
 * (after a full GC, from {@code jcmd GC.class_histogram}) before and after the official client
 * batch-registers ephemeral instances, then after persistent ones are registered one by one.
 * Prints bytes per instance per node and the classes that grew most, the list to compact.
 */
@Command(name = "memory-bench", mixinStandardHelpOptions = true)
public final class MemoryBench implements Callable<Integer> {
  private static final Pattern INSTANCE_COUNT = Pattern.compile("\"instanceCount\"\\s*:\\s*(\\d+)");

  @Option(names = "--nodes", required = true, split = ",", description = "host:port of each node; client c uses node c % n")
  List<String> nodes;
  @Option(names = "--pids", required = true, split = ",", description = "the node processes, in --nodes order")
  List<Long> pids;
  @Option(names = "--clients", defaultValue = "8")
  int clients;
  @Option(names = "--services", defaultValue = "1000", description = "ephemeral services, each batch-registered at once")
  int services;
  @Option(names = "--per-service", defaultValue = "100")
  int perService;
  @Option(names = "--persistent", defaultValue = "10000", description = "persistent instances, registered one by one")
  int persistent;
  @Option(names = "--timeout-seconds", defaultValue = "900", description = "bound on each phase")
  int timeoutSeconds;
  @Option(names = "--queries", defaultValue = "2000",
      description = "queries of one service while the nodes hold the ephemeral instances (p50/p99)")
  int queries;
  @Option(names = "--restart-command",
      description = "run last, while the clients still hold their instances (e.g. kill a node and start it again); "
          + "then every node must list them all")
  String restartCommand;
  @Option(names = "--settle-seconds", defaultValue = "70",
      description = "wait before measuring the persistent heap: Ratis keeps each write's reply 60 s (retry cache)")
  int settleSeconds;

  public static void main(String[] args) {
    System.exit(new CommandLine(new MemoryBench()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    String run = Long.toString(System.currentTimeMillis() % 1_000_000, 36);
    List<NamingService> namings = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      Properties p = new Properties();
      p.setProperty(PropertyKeyConst.SERVER_ADDR, nodes.get(c % nodes.size()));
      p.setProperty(PropertyKeyConst.NAMING_LOAD_CACHE_AT_START, "false");
      namings.add(NamingFactory.createNamingService(p));
    }
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      List<Histogram> empty = histograms();
      long start = System.nanoTime();
      runPerClient(pool, c -> {
        for (int s = c; s < services; s += clients) {
          List<Instance> batch = new ArrayList<>(perService);
          for (int i = 0; i < perService; i++) {
            batch.add(instance(s, i, true));
          }
          namings.get(c).batchRegisterInstance("mem-" + run + "-e" + s, "DEFAULT_GROUP", batch);
        }
      });
      long ephemeral = (long) services * perService;
      awaitCount(ephemeral);
      double registerSeconds = (System.nanoTime() - start) / 1e9;
      awaitReplicationSettled();
      List<Histogram> withEphemeral = histograms();
      report("ephemeral", ephemeral, empty, withEphemeral);
      System.out.printf("registered %d ephemeral instances in %.1f s (until every node listed them)%n",
          ephemeral, registerSeconds);
      queryWhileHolding(namings.get(0), "mem-" + run + "-e0");

      if (persistent > 0) {
        AtomicInteger next = new AtomicInteger();
        runPerClient(pool, c -> {
          for (int n = next.getAndIncrement(); n < persistent; n = next.getAndIncrement()) {
            namings.get(c).registerInstance("mem-" + run + "-p" + (n / perService), instance(n / perService, n % perService, false));
          }
        });
        awaitCount(ephemeral + persistent);
        Thread.sleep(settleSeconds * 1000L); // a fixed wait by design: what expires by then is not per-instance cost
        report("persistent", persistent, withEphemeral, histograms());
      }
      if (restartCommand != null) {
        restart(ephemeral + Math.max(persistent, 0));
      }
      return 0;
    } finally {
      pool.shutdownNow();
      for (NamingService n : namings) {
        n.shutDown();
      }
    }
  }

  /** Latency of {@code getAllInstances} of one service (no client cache), while the nodes hold everything. */
  private void queryWhileHolding(NamingService naming, String service) throws Exception {
    if (queries <= 0) {
      return;
    }
    long[] nanos = new long[queries];
    for (int q = 0; q < queries; q++) {
      long start = System.nanoTime();
      int found = naming.getAllInstances(service, false).size();
      nanos[q] = System.nanoTime() - start;
      if (found != perService) {
        throw new IllegalStateException(service + " lists " + found + " instances, not " + perService);
      }
    }
    java.util.Arrays.sort(nanos);
    System.out.printf("query of a %d-instance service while holding them: p50 %.2f ms, p99 %.2f ms (%d queries, one client)%n",
        perService, nanos[queries / 2] / 1e6, nanos[(int) (queries * 0.99)] / 1e6, queries);
  }

  /** Runs the restart command, then reads what each node lists at once and once they agree. */
  private void restart(long expected) throws Exception {
    long start = System.nanoTime();
    Process p = new ProcessBuilder("bash", "-c", restartCommand).inheritIO().start();
    if (!p.waitFor(timeoutSeconds, java.util.concurrent.TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException("restart command failed or timed out: " + restartCommand);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    StringBuilder counts = new StringBuilder();
    for (String node : nodes) {
      counts.append(' ').append(node).append('=').append(instanceCount(node));
    }
    System.out.printf("%nrestart command took %.2f s (until the node answered ready); instances listed then:%s%n",
        seconds, counts);
    long waitStart = System.nanoTime();
    awaitCount(expected);
    System.out.printf("every node lists %d instances %.2f s after that%n", expected, (System.nanoTime() - waitStart) / 1e9);
  }

  private interface ClientWork {
    void run(int client) throws Exception;
  }

  private void runPerClient(ExecutorService pool, ClientWork work) throws Exception {
    List<Future<?>> done = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      int client = c;
      done.add(pool.submit(() -> {
        work.run(client);
        return null;
      }));
    }
    for (Future<?> f : done) {
      f.get(timeoutSeconds, java.util.concurrent.TimeUnit.SECONDS);
    }
  }

  private static Instance instance(int service, int i, boolean ephemeral) {
    Instance instance = new Instance();
    // 127.0.0.0/8 is loopback: the nodes' health probes of persistent instances stay on this host.
    instance.setIp("127." + (service / 250 % 250 + 1) + "." + (service % 250) + "." + (i % 250 + 1));
    instance.setPort(8000 + i / 250);
    instance.setEphemeral(ephemeral);
    return instance;
  }

  /** Waits until every node counts at least {@code expected} instances (replication included). */
  private void awaitCount(long expected) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
    for (String node : nodes) {
      long count;
      while ((count = instanceCount(node)) < expected) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(node + " still lists " + count + " instances, fewer than " + expected);
        }
        Thread.sleep(100); // polls a condition with a deadline
      }
    }
  }

  private static final Pattern REPLICATION_BACKLOG =
      Pattern.compile("(?m)^nacre_distro_(?:pending_keys|pulls_in_progress)\\{[^}]*} ([0-9.]+)$");

  /**
   * Waits until no node has Distro keys queued for a peer or a verify pull open, so the heap is
   * read holding the instances, not replication's traffic in flight.
   */
  private void awaitReplicationSettled() throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
    for (String node : nodes) {
      double backlog;
      while ((backlog = replicationBacklog(node)) != 0) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(node + " still has " + backlog + " Distro keys queued or pulls open");
        }
        Thread.sleep(100); // polls a condition with a deadline
      }
    }
  }

  /** Keys queued to peers plus verify pulls open on {@code node}; -1 when it does not answer. */
  private double replicationBacklog(String node) throws InterruptedException {
    try {
      String body = http.send(HttpRequest.newBuilder(URI.create("http://" + node + "/metrics"))
          .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString()).body();
      double sum = 0;
      Matcher m = REPLICATION_BACKLOG.matcher(body);
      while (m.find()) {
        sum += Double.parseDouble(m.group(1));
      }
      return sum;
    } catch (java.io.IOException e) {
      return -1;
    }
  }

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  /** The instance count a node reports in Nacos' operator metrics; -1 when it does not answer. */
  private long instanceCount(String node) throws InterruptedException {
    try {
      String body = http.send(HttpRequest.newBuilder(URI.create("http://" + node + "/nacos/v1/ns/operator/metrics"))
          .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString()).body();
      Matcher m = INSTANCE_COUNT.matcher(body);
      return m.find() ? Long.parseLong(m.group(1)) : -1;
    } catch (java.io.IOException e) {
      return -1;
    }
  }

  private List<Histogram> histograms() throws Exception {
    List<Histogram> out = new ArrayList<>();
    for (long pid : pids) {
      out.add(Histogram.of(pid));
    }
    return out;
  }

  private void report(String kind, long instances, List<Histogram> before, List<Histogram> after) {
    System.out.printf("%n== %d %s instances%n", instances, kind);
    for (int n = 0; n < pids.size(); n++) {
      Histogram b = before.get(n);
      Histogram a = after.get(n);
      System.out.printf("node %s: live heap %.1f -> %.1f MiB, %d bytes per instance%n", nodes.get(n),
          b.totalBytes() / 1048576.0, a.totalBytes() / 1048576.0, (a.totalBytes() - b.totalBytes()) / instances);
      System.out.println("  largest growth (bytes per instance, class):");
      a.growthOver(b).stream().limit(12).forEach(g ->
          System.out.printf("  %8.1f  %s%n", (double) g.bytes() / instances, g.className()));
    }
  }
}
