package dev.nacre.bench.config;

import com.alibaba.nacos.api.config.listener.AbstractListener;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * Figure 3: many ConfigServices (each its own gRPC connection, listener l on member l % n) listen
 * to one key; one publish through a client of member 1; from the publish's acknowledgement to
 * each listener's {@code receiveConfigInfo} of that content. A warm-up round, then the measured
 * rounds, each bounded in time.
 */
final class FanOut {
  private static final Duration ROUND_LIMIT = Duration.ofSeconds(30);
  private static final Duration SETUP_LIMIT = Duration.ofMinutes(3);

  /**
   * {@code drivers} 0: the listeners in this JVM; otherwise spread over that many driver JVMs
   * ({@link FanOutDriver}, each {@code -Xmx driverHeap}, this JVM's other options).
   */
  record Plan(int listeners, int rounds, int contentBytes, int drivers, String driverHeap) {}

  private final String dataId;
  private final String group;
  private final Members members;
  private final Plan plan;
  private final Figures figures;

  FanOut(String prefix, Members members, Plan plan, Figures figures) {
    this.dataId = prefix + "-fan";
    this.group = prefix + "-g";
    this.members = members;
    this.plan = plan;
    this.figures = figures;
  }

  void run() throws Exception {
    if (plan.drivers() > 0) {
      runSpread();
      return;
    }
    List<Client> listeners = List.of();
    try (Client publisher = Client.open(members.node(0), false)) {
      if (!publisher.config().publishConfig(dataId, group, content(0))) {
        throw new IllegalStateException("publishing the fan-out key was refused");
      }
      long base = sum(members.each(members::listenedKeys));
      long t0 = System.nanoTime();
      listeners = Client.openAll(members.nodes(), plan.listeners(), false, 16);
      AtomicLongArray received = new AtomicLongArray(plan.listeners());
      AtomicReference<String> expected = new AtomicReference<>();
      AtomicReference<CountDownLatch> latch = new AtomicReference<>(new CountDownLatch(0));
      addListeners(listeners, received, expected, latch);
      awaitListening(base + plan.listeners());
      System.out.printf("%d listeners (ConfigServices, one gRPC connection each, listener l on member l %% %d) "
              + "in this JVM, listening %.1f s after the first was created; %d threads in this JVM%n",
          plan.listeners(), members.nodes().size(), (System.nanoTime() - t0) / 1e9, Thread.activeCount());

      List<Double> lasts = new ArrayList<>();
      Histogram all = new Histogram(1, TimeUnit.SECONDS.toMicros(60), 3);
      for (int round = 0; round <= plan.rounds(); round++) {
        String content = content(round + 1);
        for (int l = 0; l < plan.listeners(); l++) {
          received.set(l, 0);
        }
        CountDownLatch everyoneHeard = new CountDownLatch(plan.listeners());
        latch.set(everyoneHeard);
        expected.set(content);
        if (!publisher.config().publishConfig(dataId, group, content)) {
          throw new IllegalStateException("fan-out publish refused");
        }
        long acked = System.nanoTime();
        boolean everyone = everyoneHeard.await(ROUND_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        long[] ms = new long[plan.listeners()];
        int missing = 0;
        int early = 0;
        for (int l = 0; l < plan.listeners(); l++) {
          long at = received.get(l);
          if (at == 0) {
            missing++;
            ms[l] = Long.MAX_VALUE;
            continue;
          }
          early += at < acked ? 1 : 0;
          ms[l] = Math.max(0, at - acked);
        }
        Arrays.sort(ms);
        long last = everyone ? ms[ms.length - 1] : Long.MAX_VALUE;
        System.out.printf(Locale.ROOT, "  fan-out round %d%s: first %.1f ms, median %.1f ms, last %s; %d before the ack, %d missing%n",
            round, round == 0 ? " (warm-up)" : "", ms[0] / 1e6, ms[ms.length / 2] / 1e6,
            everyone ? String.format(Locale.ROOT, "%.1f ms", last / 1e6) : "none within " + ROUND_LIMIT.toSeconds() + " s",
            early, missing);
        if (round == 0) {
          continue;
        }
        lasts.add(everyone ? last / 1e6 : Double.POSITIVE_INFINITY);
        for (long v : ms) {
          if (v != Long.MAX_VALUE) {
            all.recordValue(Math.max(1, Math.min(TimeUnit.SECONDS.toMicros(60), v / 1000)));
          }
        }
        figures.add("fan-out: listeners missing the change after " + ROUND_LIMIT.toSeconds() + " s", "%.0f", missing);
      }
      lasts.sort(null);
      figures.add("fan-out: ack -> LAST of " + plan.listeners() + " listeners, p50 ms (over " + plan.rounds() + " rounds)",
          "%.1f", percentile(lasts, 50));
      figures.add("fan-out: ack -> LAST listener, p99 ms", "%.1f", Figures.Target.atMost(300, "< 300 ms"), percentile(lasts, 99));
      figures.add("fan-out: ack -> LAST listener, max ms", "%.1f", lasts.get(lasts.size() - 1));
      figures.add("fan-out: ack -> each listener, p50 ms (all rounds)", "%.1f", all.getValueAtPercentile(50) / 1000.0);
      figures.add("fan-out: ack -> each listener, p99 ms (all rounds)", "%.1f", all.getValueAtPercentile(99) / 1000.0);
    } finally {
      Client.closeAll(listeners);
    }
  }

  /** One driver JVM: its process, and its protocol lines as they come. */
  private record Driver(int index, int first, int count, Process process, BlockingQueue<String> lines) {
    String await(String prefix, long limitMs) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limitMs);
      while (true) {
        long left = deadline - System.nanoTime();
        String line = left <= 0 ? null : lines.poll(left, TimeUnit.NANOSECONDS);
        if (line == null) {
          throw new IllegalStateException("driver JVM " + index + " (listeners " + first + ".." + (first + count - 1)
              + ") sent no '" + prefix + "' within " + limitMs / 1000 + " s" + (process.isAlive() ? "" : "; it exited " + process.exitValue())
              + " (its stderr: fan-out-driver-" + index + ".err in the client log folder)");
        }
        if (line.startsWith(prefix)) {
          return line.substring(prefix.length()).trim();
        }
      }
    }

    void send(String line) throws IOException {
      process.getOutputStream().write((line + "\n").getBytes(StandardCharsets.UTF_8));
      process.getOutputStream().flush();
    }
  }

  /**
   * The listeners spread over {@code plan.drivers()} driver JVMs (listener l on member l % n as in
   * one JVM). Each JVM stamps receives in epoch microseconds, this one the publish's
   * acknowledgement: one wall clock on one machine. Around every round, the members'
   * notification timer splits the server's part (change reaching the member -> client's ack) off.
   */
  private void runSpread() throws Exception {
    List<Driver> drivers = new ArrayList<>();
    try (Client publisher = Client.open(members.node(0), false)) {
      if (!publisher.config().publishConfig(dataId, group, content(0))) {
        throw new IllegalStateException("publishing the fan-out key was refused");
      }
      long base = sum(members.each(members::listenedKeys));
      long t0 = System.nanoTime();
      int per = plan.listeners() / plan.drivers();
      int extra = plan.listeners() % plan.drivers();
      // One JVM after the other: all connecting at once overloaded the shared 2-core machine
      // (nacos-client's 3 s server checks timed out and retried in a loop).
      long threads = 0;
      for (int d = 0, first = 0; d < plan.drivers(); d++) {
        int count = per + (d < extra ? 1 : 0);
        Driver driver = startDriver(d, first, count);
        drivers.add(driver);
        threads += Long.parseLong(driver.await("@@ ready", TimeUnit.MINUTES.toMillis(3)));
        System.out.printf(Locale.ROOT, "  driver JVM %d: listeners %d..%d ready %.1f s after the first JVM started%n",
            d, first, first + count - 1, (System.nanoTime() - t0) / 1e9);
        first += count;
      }
      awaitListening(base + plan.listeners());
      System.out.printf("%d listeners (ConfigServices, one gRPC connection each, listener l on member l %% %d) "
              + "over %d driver JVMs (-Xmx%s each), listening %.1f s after the first JVM started; %d threads in the driver JVMs%n",
          plan.listeners(), members.nodes().size(), plan.drivers(), plan.driverHeap(), (System.nanoTime() - t0) / 1e9, threads);

      List<Double> lasts = new ArrayList<>();
      Histogram all = new Histogram(1, TimeUnit.SECONDS.toMicros(60), 3);
      NotificationTimer.Snapshot serverAll = null;
      for (int round = 0; round <= plan.rounds(); round++) {
        String content = content(round + 1);
        for (Driver d : drivers) {
          d.send("arm " + (round + 1));
        }
        for (Driver d : drivers) {
          d.await("@@ armed " + (round + 1), 30_000);
        }
        NotificationTimer.Snapshot before = NotificationTimer.read(members.nodes());
        if (!publisher.config().publishConfig(dataId, group, content)) {
          throw new IllegalStateException("fan-out publish refused");
        }
        long acked = FanOutDriver.epochMicros();
        long[] us = new long[plan.listeners()];
        int missing = 0;
        int early = 0;
        for (Driver d : drivers) {
          String[] at = d.await("@@ heard " + (round + 1) + " ", 60_000).split(",");
          for (int k = 0; k < d.count(); k++) {
            long v = Long.parseLong(at[k]);
            if (v == 0) {
              missing++;
              us[d.first() + k] = Long.MAX_VALUE;
            } else {
              early += v < acked ? 1 : 0;
              us[d.first() + k] = Math.max(0, v - acked);
            }
          }
        }
        // The last acknowledgement is recorded a moment after the last receive: poll the members' timers
        // until every heard listener's acknowledgement is counted, or 5 s have passed.
        NotificationTimer.Snapshot server = NotificationTimer.read(members.nodes()).minus(before);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (server.count("acked") < us.length - missing && System.nanoTime() < deadline) {
          Thread.sleep(50); // polls a condition with a deadline
          server = NotificationTimer.read(members.nodes()).minus(before);
        }
        Arrays.sort(us);
        boolean everyone = missing == 0;
        long last = everyone ? us[us.length - 1] : Long.MAX_VALUE;
        System.out.printf(Locale.ROOT, "  fan-out round %d%s: ack -> first %.1f ms, median %.1f ms, p99 %.1f ms, last %s; "
                + "%d before the ack, %d missing; server (change on member -> client ack): %s%n",
            round, round == 0 ? " (warm-up)" : "", us[0] / 1e3, us[us.length / 2] / 1e3,
            us[Math.max(0, (int) Math.ceil(0.99 * us.length) - 1)] / 1e3,
            everyone ? String.format(Locale.ROOT, "%.1f ms", last / 1e3) : "none within 40 s", early, missing, server.describe());
        if (round == 0) {
          continue;
        }
        serverAll = serverAll == null ? server : serverAll.plus(server);
        lasts.add(everyone ? last / 1e3 : Double.POSITIVE_INFINITY);
        for (long v : us) {
          if (v != Long.MAX_VALUE) {
            all.recordValue(Math.max(1, Math.min(TimeUnit.SECONDS.toMicros(60), v)));
          }
        }
        figures.add("fan-out: listeners missing the change after 40 s", "%.0f", missing);
      }
      lasts.sort(null);
      figures.add("fan-out: ack -> LAST of " + plan.listeners() + " listeners (" + plan.drivers() + " driver JVMs), p50 ms (over "
          + plan.rounds() + " rounds)", "%.1f", percentile(lasts, 50));
      figures.add("fan-out: ack -> LAST listener, p99 ms", "%.1f", Figures.Target.atMost(300, "< 300 ms"), percentile(lasts, 99));
      figures.add("fan-out: ack -> LAST listener, max ms", "%.1f", lasts.get(lasts.size() - 1));
      figures.add("fan-out: ack -> each listener, p50 ms (all rounds)", "%.1f", all.getValueAtPercentile(50) / 1000.0);
      figures.add("fan-out: ack -> each listener, p99 ms (all rounds)", "%.1f", all.getValueAtPercentile(99) / 1000.0);
      if (serverAll != null) {
        figures.add("fan-out: server, change on member -> client ack, acked notifications (all rounds)", "%.0f", serverAll.count("acked"));
        figures.add("fan-out: server, change on member -> client ack, p50 ms (buckets)", "%.1f", serverAll.percentileMs("acked", 50));
        figures.add("fan-out: server, change on member -> client ack, p99 ms (buckets)", "%.1f", serverAll.percentileMs("acked", 99));
        figures.add("fan-out: server, change on member -> client ack, mean ms", "%.1f", serverAll.meanMs("acked"));
        System.out.println("  server notifications over the measured rounds: " + serverAll.describe());
      }
    } finally {
      for (Driver d : drivers) {
        try {
          d.send("quit");
        } catch (IOException e) {
          // already gone
        }
      }
      for (Driver d : drivers) {
        if (!d.process().waitFor(90, TimeUnit.SECONDS)) {
          System.out.println("  driver JVM " + d.index() + " still runs 90 s after quit: killed");
          d.process().destroyForcibly();
        }
      }
    }
  }

  private Driver startDriver(int index, int first, int count) throws IOException {
    String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    List<String> command = new ArrayList<>();
    command.add(java);
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("-Xmx") || arg.startsWith("-Xss")) {
        continue;
      }
      if (arg.startsWith("-DJM.LOG.PATH=") || arg.startsWith("-DJM.SNAPSHOT.PATH=")) {
        arg = arg + "/driver-" + index; // each JVM its own client logs and snapshots
      }
      command.add(arg);
    }
    command.addAll(List.of("-Xmx" + plan.driverHeap(), "-Xss512k", "-cp", System.getProperty("java.class.path"),
        FanOutDriver.class.getName(), String.join(",", members.nodes()), Integer.toString(first), Integer.toString(count),
        dataId, group, Integer.toString(plan.contentBytes())));
    // nacos-client's errors while a thousand connect run to hundreds of megabytes: to a file.
    Path log = Path.of(System.getProperty("JM.LOG.PATH", System.getProperty("java.io.tmpdir")), "fan-out-driver-" + index + ".err");
    Files.createDirectories(log.getParent());
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.to(log.toFile())).start();
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          if (line.startsWith("@@")) {
            lines.add(line);
          }
        }
      } catch (IOException e) {
        // the process ended
      }
    }, "fan-out-driver-" + index);
    reader.setDaemon(true);
    reader.start();
    return new Driver(index, first, count, p, lines);
  }

  private void addListeners(List<Client> listeners, AtomicLongArray received, AtomicReference<String> expected,
      AtomicReference<CountDownLatch> latch)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      List<Future<?>> added = new ArrayList<>();
      for (int l = 0; l < listeners.size(); l++) {
        int index = l;
        added.add(pool.submit(() -> {
          listeners.get(index).config().addListener(dataId, group, new AbstractListener() {
            @Override
            public void receiveConfigInfo(String configInfo) {
              long now = System.nanoTime();
              if (configInfo != null && configInfo.equals(expected.get()) && received.compareAndSet(index, 0, now)) {
                latch.get().countDown();
              }
            }
          });
          return null;
        }));
      }
      for (Future<?> f : added) {
        f.get(SETUP_LIMIT.toSeconds(), TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** Until the members hold {@code expected} listened keys in all: every listener's listen request arrived. */
  private void awaitListening(long expected) throws InterruptedException {
    long deadline = System.nanoTime() + SETUP_LIMIT.toNanos();
    long now;
    while ((now = sum(members.each(members::listenedKeys))) < expected) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the members hold " + now + " listened keys, not " + expected + ", after "
            + SETUP_LIMIT.toSeconds() + " s");
      }
      Thread.sleep(100); // polls a condition with a deadline
    }
  }

  private String content(int round) {
    return content(round, plan.contentBytes());
  }

  /** Round {@code round}'s content, the same in every driver JVM. */
  static String content(int round, int contentBytes) {
    return Contents.of("fan-" + round + "\n", round, contentBytes);
  }

  private static long sum(List<Long> values) {
    return values.stream().mapToLong(Long::longValue).sum();
  }

  /** Nearest-rank percentile of sorted values. */
  static double percentile(List<Double> sorted, double p) {
    int rank = (int) Math.ceil(p / 100 * sorted.size());
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
  }
}
