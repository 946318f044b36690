package dev.nacre.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Figure 3: {@code scripts/cluster.sh kill I} on the Raft leader, then CP writes sent one after
 * the other to a survivor until one succeeds. The clock starts just before the kill script is
 * launched (so it includes that script's start-up, a few tens of ms) and stops when the first
 * write is acknowledged. Between rounds the killed node is started again and the cluster must
 * show one leader seen by all nodes and accept a write through every node.
 */
final class Failover {
  private final Http http;
  private final List<String> nodes;
  private final ClusterScript script;
  private final CpWrites writes;

  Failover(Http http, List<String> nodes, String clusterScript, String dir, String runId) {
    this.http = http;
    this.nodes = nodes;
    this.script = new ClusterScript(clusterScript, dir);
    this.writes = new CpWrites(http, runId);
  }

  void run(int rounds, String series, Path out) throws IOException, InterruptedException {
    String service = "bench-failover-" + series.replaceAll("[^A-Za-z0-9]", "") + "-" + System.currentTimeMillis();
    int leader = awaitStableLeader(60);
    writes.prepareService(nodes.get(leader), service);
    Histogram h = Results.newHistogram();
    Histogram elected = Results.newHistogram();
    long errors = 0;
    int seq = 0;
    List<String> perRound = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      leader = awaitStableLeader(60);
      int survivor = (leader + 1 + round % (nodes.size() - 1)) % nodes.size();
      awaitWritable(survivor, service, seq++, round);
      long pid = script.pid(leader + 1);
      String oldLeader = http.status(nodes.get(leader)).self();
      long t0 = System.nanoTime();
      LeaderWatch watch = new LeaderWatch(nodes.get(survivor), oldLeader, t0);
      script.run("kill", leader + 1);
      long killed = System.nanoTime();
      long deadline = t0 + TimeUnit.SECONDS.toNanos(20);
      int attempts = 0;
      boolean ok = false;
      while (System.nanoTime() < deadline) {
        attempts++;
        if (writes.write(nodes.get(survivor), service, seq++).ok()) {
          ok = true;
          break;
        }
        CpWrites.sleepMs(5);
      }
      long t1 = System.nanoTime();
      long electedMicros = watch.await();
      if (electedMicros > 0) {
        elected.recordValue(electedMicros);
      }
      Http.Status after = http.status(nodes.get(survivor));
      String line = String.format("round %d: killed node %d (leader), kill script %d ms, survivor node %d saw a new leader after %d ms, first write OK after %d ms, %d attempt(s), new leader %s term %d",
          round + 1, leader + 1, (killed - t0) / 1_000_000, survivor + 1, electedMicros / 1000, (t1 - t0) / 1_000_000, attempts, after.leader(), after.term());
      System.out.println(line);
      perRound.add(Long.toString((t1 - t0) / 1_000_000));
      if (ok) {
        h.recordValue((t1 - t0) / 1000);
      } else {
        errors++;
      }
      ClusterScript.awaitExit(pid);
      script.run("start-node", leader + 1);
    }
    awaitStableLeader(60);
    Results.append(out, Results.row("3-election", series, elected, 0,
        "kill -9 leader -> survivor's /nacre/v1/status names a new leader (polled every 5 ms)"));
    Results.append(out, Results.row("3-failover", series, h, errors,
        "kill -9 leader -> first CP write OK on a survivor; rounds ms: " + String.join(",", perRound)));
  }

  /** Polls one node's status on its own thread until it names a leader other than {@code old}. */
  private final class LeaderWatch {
    private final Thread thread;
    private volatile long micros = -1;

    LeaderWatch(String node, String old, long t0) {
      thread = new Thread(() -> {
        long deadline = t0 + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
          Http.Status s = http.status(node);
          if (s.leader() != null && !s.leader().equals(old)) {
            micros = Math.max(1, (System.nanoTime() - t0) / 1000);
            return;
          }
          CpWrites.sleepMs(5);
        }
      }, "leader-watch");
      thread.setDaemon(true);
      thread.start();
    }

    /** Microseconds from the kill to the new leader, or -1 if none was seen within 20 s. */
    long await() throws InterruptedException {
      thread.join(TimeUnit.SECONDS.toMillis(25));
      return micros;
    }
  }

  private void awaitWritable(int node, String service, int seq, int round) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    Http.Reply last = null;
    while (System.nanoTime() < deadline) {
      last = writes.write(nodes.get(node), service, seq);
      if (last.ok()) {
        return;
      }
      CpWrites.sleepMs(100);
    }
    throw new IllegalStateException("cluster not writable before round " + (round + 1) + ": " + last);
  }

  /** Index of the leader once every node answers and names the same leader. */
  private int awaitStableLeader(int seconds) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < deadline) {
      String leader = null;
      boolean agreed = true;
      for (String node : nodes) {
        Http.Status s = http.status(node);
        if (s.leader() == null || (leader != null && !leader.equals(s.leader()))) {
          agreed = false;
          break;
        }
        leader = s.leader();
      }
      if (agreed && leader != null) {
        for (int i = 0; i < nodes.size(); i++) {
          if (nodes.get(i).endsWith("//" + leader)) {
            return i;
          }
        }
        throw new IllegalStateException("leader " + leader + " is none of " + nodes);
      }
      CpWrites.sleepMs(100);
    }
    throw new IllegalStateException("no leader agreed by all nodes within " + seconds + " s");
  }
}
