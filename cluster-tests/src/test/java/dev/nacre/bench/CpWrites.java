package dev.nacre.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * Figure 2: persistent (CP) registrations, each of a new instance, sent to one node by
 * {@code writers} threads that each send their share one after the other. The service's health
 * checker is set to NONE first so that thousands of persistent instances do not set the nodes
 * probing addresses that nobody listens on.
 */
final class CpWrites {
  private final Http http;
  private final String runId;

  CpWrites(Http http, String runId) {
    this.http = http;
    this.runId = runId;
  }

  /** Creates the service with health checks off; retried for a while in case no leader is known yet. */
  void prepareService(String node, String service) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    String q = "serviceName=" + Http.enc(service);
    while (System.nanoTime() < deadline) {
      Http.Reply created = http.send("POST", node + "/nacos/v1/ns/service?" + q);
      Http.Reply checker = http.send("PUT", node + "/nacos/v1/ns/cluster?" + q
          + "&clusterName=DEFAULT&healthChecker=" + Http.enc("{\"type\":\"NONE\"}"));
      if ((created.ok() || created.body().contains("already")) && checker.ok()) {
        return;
      }
      System.out.printf("prepare %s on %s: %d %s / %d %s; retrying%n", service, node,
          created.status(), created.body(), checker.status(), checker.body());
      sleepMs(200);
    }
    throw new IllegalStateException("could not create service " + service + " on " + node);
  }

  void run(String node, int count, int writers, int warmup, String figure, String series, Path out)
      throws InterruptedException {
    String service = "bench-cp-" + runId + "-" + series.replaceAll("[^A-Za-z0-9]", "");
    prepareService(node, service);
    for (int i = 0; i < warmup; i++) {
      write(node, service, 60000 + i);
    }
    Histogram h = Results.newHistogram();
    AtomicLong errors = new AtomicLong();
    List<Thread> threads = new ArrayList<>();
    long start = System.nanoTime();
    long runDeadline = start + TimeUnit.SECONDS.toNanos(30 + count * 4L / writers);
    for (int w = 0; w < writers; w++) {
      int writer = w;
      Thread thread = new Thread(() -> {
        for (int i = writer; i < count && System.nanoTime() < runDeadline; i += writers) {
          long t0 = System.nanoTime();
          Http.Reply r = write(node, service, i);
          long micros = Math.max(1, (System.nanoTime() - t0) / 1000);
          if (r.ok()) {
            synchronized (h) {
              h.recordValue(micros);
            }
          } else {
            errors.incrementAndGet();
            System.out.printf("cp write %d to %s failed after %d ms: %d %s%n", i, node, micros / 1000, r.status(), r.body());
          }
        }
      }, "cp-writer-" + w);
      thread.start();
      threads.add(thread);
    }
    for (Thread t : threads) {
      t.join();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    Results.append(out, Results.row(figure, series, h, errors.get(),
        String.format(java.util.Locale.ROOT, "%d writer(s), %.0f writes/s", writers, h.getTotalCount() / seconds)));
  }

  Http.Reply write(String node, String service, int i) {
    String ip = "127.88." + (i / 250) + "." + (i % 250 + 1);
    return http.send("POST", node + "/nacos/v1/ns/instance?serviceName=" + Http.enc(service)
        + "&ip=" + ip + "&port=" + (30000 + i % 30000) + "&ephemeral=false");
  }

  static void sleepMs(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
