package dev.nacre.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A churn load for the restart figure, as issue 10 describes it: writers that register an
 * instance and deregister it again, over and over, a quarter of them persistent, through the HTTP
 * API of the nodes that stay up. Each writer holds at most one instance at a time, so two nodes'
 * counts differ by at most one per writer of that kind while the load runs ({@link #persistentWriters}
 * and {@link #ephemeralWriters} bound how far a restarted node may lag without serving a partial
 * registry). Bounded: each writer stops when closed, after {@link #MAX_OPS} operations or after
 * {@link #MAX_NANOS}.
 */
final class Churn implements AutoCloseable {
  private static final long MAX_OPS = 1_000_000;
  private static final long MAX_NANOS = TimeUnit.MINUTES.toNanos(30);
  /** Between two operations of one writer, as in the fault suite's restart under churn. */
  private static final long PAUSE_MS = 40;
  private static final String SERVICE = "bench-churn-";

  private final Http http;
  private final List<String> targets;
  private final int writers;
  private final List<Thread> threads = new ArrayList<>();
  private final AtomicLong ops = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private volatile boolean stopped;

  /** {@code writers} writers spread over {@code targets} (the nodes that are not restarted). */
  Churn(Http http, List<String> targets, int writers) {
    this.http = http;
    this.targets = List.copyOf(targets);
    this.writers = writers;
  }

  /** Writer w is persistent when w % 4 == 0: a quarter of them, at least one. */
  int persistentWriters() {
    return (writers + 3) / 4;
  }

  int ephemeralWriters() {
    return writers - persistentWriters();
  }

  Churn start(CpWrites services) {
    for (int w = 0; w < writers; w++) {
      if (w % 4 == 0) {
        services.prepareService(targets.get(0), SERVICE + w);
      }
    }
    long deadline = System.nanoTime() + MAX_NANOS;
    for (int w = 0; w < writers; w++) {
      int writer = w;
      Thread t = new Thread(() -> write(writer, deadline), "churn-" + w);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
    return this;
  }

  private void write(int writer, long deadline) {
    String node = targets.get(writer % targets.size());
    String instance = node + "/nacos/v1/ns/instance?serviceName=" + SERVICE + writer + "&port=8080&ephemeral="
        + (writer % 4 != 0);
    for (long i = 0; !stopped && i < MAX_OPS && System.nanoTime() < deadline; i++) {
      String ip = "&ip=127.200." + writer + "." + (i % 250 + 1);
      for (String method : new String[] {"POST", "DELETE"}) {
        ops.incrementAndGet();
        if (!http.send(method, instance + ip).ok()) {
          failed.incrementAndGet();
        }
        CpWrites.sleepMs(PAUSE_MS);
      }
    }
  }

  /** Operations sent so far. */
  long operations() {
    return ops.get();
  }

  /** Operations sent so far, and how many of them failed. */
  String summary() {
    return ops.get() + " churn operations (" + failed.get() + " failed)";
  }

  @Override
  public void close() throws InterruptedException {
    stopped = true;
    for (Thread t : threads) {
      t.join(TimeUnit.SECONDS.toMillis(15));
    }
  }
}
