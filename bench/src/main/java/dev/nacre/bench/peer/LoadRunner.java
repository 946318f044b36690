package dev.nacre.bench.peer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;

/**
 * Runs one series: every client on its own thread, each operation synchronous and right after the
 * previous one (like an application), all clients at once. Every loop is bounded in count and in
 * time. Latency is recorded per acknowledged operation; the servers' CPU is read around the
 * measured window. {@code D} is one client (a registry driver, or the config bench's pair of
 * official services); each is used by one thread only.
 */
public final class LoadRunner<D> {
  /** One operation of a counted series on one item. */
  public interface ItemStep<D, T> {
    void run(D driver, T item) throws Exception;
  }

  /** One operation of a timed series: client {@code client}'s {@code n}-th. */
  public interface IndexedStep<D> {
    void run(D driver, int client, long n) throws Exception;
  }

  /** What a series did: acknowledged operations, failures, the measured seconds and latencies. */
  public record Outcome<T>(long ops, long errors, double seconds, Histogram latencyMicros, double cpuSeconds,
      List<T> acknowledged) {
  }

  private static final int ERRORS_SHOWN = 3;
  private final List<D> drivers;
  private final CpuMeter cpu;
  private final AtomicInteger errorsShown = new AtomicInteger();

  public LoadRunner(List<D> drivers, CpuMeter cpu) {
    this.drivers = drivers;
    this.cpu = cpu;
  }

  public int clients() {
    return drivers.size();
  }

  public D driver(int client) {
    return drivers.get(client);
  }

  /** Client c does {@code work.get(c)} in order; stops early (counted as unfinished) at the limit. */
  public <T> Outcome<T> counted(String label, List<List<T>> work, ItemStep<D, T> step, Duration limit)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    List<Histogram> histograms = new ArrayList<>();
    List<List<T>> acked = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    double cpu0 = cpu.seconds();
    long t0 = System.nanoTime();
    for (int c = 0; c < clients(); c++) {
      int client = c;
      Histogram h = newHistogram();
      List<T> done = new ArrayList<>();
      histograms.add(h);
      acked.add(done);
      threads.add(start(label + "-" + c, () -> {
        for (T item : work.get(client)) {
          if (System.nanoTime() >= deadline) {
            break;
          }
          long s = System.nanoTime();
          try {
            step.run(drivers.get(client), item);
            h.recordValue(micros(System.nanoTime() - s));
            done.add(item);
          } catch (Exception e) {
            report(label, client, e); // counted below, as planned minus acknowledged
          }
        }
      }));
    }
    joinAll(threads);
    double seconds = (System.nanoTime() - t0) / 1e9;
    double cpuSeconds = cpu.seconds() - cpu0;
    List<T> all = new ArrayList<>();
    acked.forEach(all::addAll);
    long planned = work.stream().mapToLong(List::size).sum();
    long failed = planned - all.size(); // errors, and operations the time limit left undone
    return new Outcome<>(all.size(), failed, seconds, merge(histograms), cpuSeconds, Collections.unmodifiableList(all));
  }

  /**
   * Every client repeats {@code step} for {@code warmup + measured}; only operations that start
   * after the warm-up and end before the end are recorded. At most {@code maxPerClient} each.
   */
  public Outcome<Void> timed(String label, Duration warmup, Duration measured, long maxPerClient, IndexedStep<D> step)
      throws InterruptedException {
    long t0 = System.nanoTime();
    long measureFrom = t0 + warmup.toNanos();
    long end = measureFrom + measured.toNanos();
    List<Histogram> histograms = new ArrayList<>();
    long[] errors = new long[clients()];
    List<Thread> threads = new ArrayList<>();
    for (int c = 0; c < clients(); c++) {
      int client = c;
      Histogram h = newHistogram();
      histograms.add(h);
      threads.add(start(label + "-" + c, () -> {
        for (long n = 0; n < maxPerClient; n++) {
          long s = System.nanoTime();
          if (s >= end) {
            break;
          }
          try {
            step.run(drivers.get(client), client, n);
            long f = System.nanoTime();
            if (s >= measureFrom && f <= end) {
              h.recordValue(micros(f - s));
            }
          } catch (Exception e) {
            if (s >= measureFrom) {
              errors[client]++;
            }
            report(label, client, e);
          }
        }
      }));
    }
    sleepUntil(measureFrom);
    double cpu0 = cpu.seconds();
    sleepUntil(end);
    double cpuSeconds = cpu.seconds() - cpu0;
    joinAll(threads);
    Histogram all = merge(histograms);
    return new Outcome<>(all.getTotalCount(), sum(errors), measured.toNanos() / 1e9, all, cpuSeconds, List.of());
  }

  private void report(String label, int client, Exception e) {
    if (errorsShown.getAndIncrement() < ERRORS_SHOWN) {
      System.out.printf("  %s: client %d failed: %s%n", label, client, e);
    }
  }

  public static Histogram newHistogram() {
    return new Histogram(1, TimeUnit.SECONDS.toMicros(60), 3);
  }

  private static long micros(long nanos) {
    return Math.min(TimeUnit.SECONDS.toMicros(60), Math.max(1, nanos / 1000));
  }

  private static Histogram merge(List<Histogram> histograms) {
    Histogram all = newHistogram();
    histograms.forEach(all::add);
    return all;
  }

  private static long sum(long[] values) {
    long s = 0;
    for (long v : values) {
      s += v;
    }
    return s;
  }

  private static Thread start(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  private static void joinAll(List<Thread> threads) throws InterruptedException {
    for (Thread t : threads) {
      t.join(TimeUnit.MINUTES.toMillis(10));
      if (t.isAlive()) {
        throw new IllegalStateException(t.getName() + " still runs 10 minutes after its series ended: a client call hangs");
      }
    }
  }

  /** Waits for a point in time (a measuring boundary, not a condition: nothing to poll for). */
  private static void sleepUntil(long nanoTime) throws InterruptedException {
    long left;
    while ((left = nanoTime - System.nanoTime()) > 0) {
      TimeUnit.NANOSECONDS.sleep(left);
    }
  }
}
