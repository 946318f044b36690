package dev.nacre.bench.config;

import com.alibaba.nacos.api.config.listener.AbstractListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
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

  record Plan(int listeners, int rounds, int contentBytes) {}

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
    return Contents.of("fan-" + round + "\n", round, plan.contentBytes());
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
