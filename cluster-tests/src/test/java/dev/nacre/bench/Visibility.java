package dev.nacre.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * Figure 1: an ephemeral registration sent over HTTP to one node, then a bounded poll of another
 * node's instance list until the new instance shows. Each sample uses its own service (so Distro
 * owners vary across nodes) and its own instance; writer and reader rotate over all ordered pairs
 * of distinct nodes. The clock starts just before the POST and stops at the first list that holds
 * the instance, so forwarding to the owner and the owner's Distro batch delay are both included.
 */
final class Visibility {
  private final Http http;
  private final List<String> nodes;
  private final String runId;

  Visibility(Http http, List<String> nodes, String runId) {
    this.http = http;
    this.nodes = nodes;
    this.runId = runId;
  }

  /**
   * Runs {@code warmup} unrecorded samples (first gRPC channels, JIT) and then {@code count}
   * recorded ones; samples over 300 ms are printed with their writer, reader and POST time.
   */
  void run(int warmup, int count, long sampleTimeoutMs, long pollPauseMicros, String series, Path out) {
    Histogram visible = Results.newHistogram();
    Histogram post = Results.newHistogram();
    long errors = 0;
    long underHundred = 0;
    int pairs = nodes.size() * (nodes.size() - 1);
    long runDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30 + count * (sampleTimeoutMs / 1000 + 1));
    for (int i = -warmup; i < count && System.nanoTime() < runDeadline; i++) {
      int pair = Math.floorMod(i, Math.max(1, pairs));
      int writer = nodes.size() == 1 ? 0 : pair / (nodes.size() - 1);
      int reader = nodes.size() == 1 ? 0 : (writer + 1 + pair % (nodes.size() - 1)) % nodes.size();
      int n = i + warmup;
      String service = "bench-vis-" + runId + "-" + n;
      String ip = "127.77." + (n / 250) + "." + (n % 250 + 1);
      int port = 20000 + n;
      String instanceQuery = "serviceName=" + Http.enc(service) + "&ip=" + ip + "&port=" + port;
      String needle = "\"ip\":\"" + ip + "\",\"port\":" + port;
      String listUrl = nodes.get(reader) + "/nacos/v1/ns/instance/list?serviceName=" + Http.enc(service);

      long t0 = System.nanoTime();
      Http.Reply reply = http.send("POST", nodes.get(writer) + "/nacos/v1/ns/instance?" + instanceQuery);
      long tPost = System.nanoTime();
      if (!reply.ok()) {
        errors += i >= 0 ? 1 : 0;
        System.out.printf("visibility %d: POST to %s failed: %d %s%n", i, nodes.get(writer), reply.status(), reply.body());
        continue;
      }
      if (i >= 0) {
        post.recordValue(Math.max(1, (tPost - t0) / 1000));
      }
      long deadline = t0 + TimeUnit.MILLISECONDS.toNanos(sampleTimeoutMs);
      boolean seen = false;
      while (System.nanoTime() < deadline) {
        Http.Reply list = http.get(listUrl);
        if (list.ok() && list.body().contains(needle)) {
          seen = true;
          break;
        }
        if (pollPauseMicros > 0) {
          LockSupport.parkNanos(pollPauseMicros * 1000);
        }
      }
      long t1 = System.nanoTime();
      if (i < 0) {
        continue;
      }
      if (t1 - t0 > TimeUnit.MILLISECONDS.toNanos(300)) {
        System.out.printf("visibility %d: slow, %d ms (POST to node %d took %d ms, read on node %d)%n",
            i, (t1 - t0) / 1_000_000, writer + 1, (tPost - t0) / 1_000_000, reader + 1);
      }
      if (seen && t1 - t0 < TimeUnit.MILLISECONDS.toNanos(100)) {
        underHundred++;
      }
      if (seen) {
        visible.recordValue(Math.max(1, (t1 - t0) / 1000));
      } else {
        errors++;
        System.out.printf("visibility %d: not visible on %s within %d ms%n", i, nodes.get(reader), sampleTimeoutMs);
      }
    }
    Results.append(out, Results.row("1-visibility", series, visible, errors,
        "register->list on another node; " + underHundred + " under 100 ms; POST p50 " + Results.ms(post.getValueAtPercentile(50))
            + " ms p99 " + Results.ms(post.getValueAtPercentile(99)) + " ms"));
  }
}
