package dev.nacre.cluster;

import dev.nacre.cluster.check.Verdict;
import dev.nacre.consensus.raft.RaftStatus;
import dev.nacre.node.Node;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Samples every running node's Raft role and term every 20 ms while a scenario runs and checks
 * Raft's election safety: at most one leader per term. A node counts as leader of term T only if
 * two status reads in a row both say LEADER at term T (a status reads the role before the term,
 * so one read may pair a past role with a newer term; terms only grow, so two matching reads
 * bracket a moment when it led in T).
 */
final class ElectionWatch implements AutoCloseable {
  private final LocalCluster cluster;
  private final Map<Long, Set<String>> leadersByTerm = new TreeMap<>();
  private final CountDownLatch stop = new CountDownLatch(1);
  private final Thread thread;
  private long samples;

  ElectionWatch(LocalCluster cluster) {
    this.cluster = cluster;
    this.thread = new Thread(this::run, "election-watch");
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    try {
      do {
        sample();
      } while (!stop.await(20, TimeUnit.MILLISECONDS));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void sample() {
    for (int i = 0; i < cluster.size(); i++) {
      Node n;
      try {
        n = cluster.node(i);
      } catch (RuntimeException stopped) {
        continue;
      }
      RaftStatus a = n.raftStatus();
      if (!a.role().equals("LEADER")) {
        continue;
      }
      RaftStatus b = n.raftStatus();
      if (b.role().equals("LEADER") && b.term() == a.term()) {
        synchronized (this) {
          leadersByTerm.computeIfAbsent(a.term(), t -> new TreeSet<>()).add(cluster.address(i));
        }
      }
    }
    synchronized (this) {
      samples++;
    }
  }

  /** Stops sampling and judges what was seen. */
  synchronized Verdict verdict() {
    close();
    Map<Long, Set<String>> two = new TreeMap<>();
    leadersByTerm.forEach((term, leaders) -> {
      if (leaders.size() > 1) {
        two.put(term, leaders);
      }
    });
    if (!two.isEmpty()) {
      return Verdict.fail("two leaders in one term: " + two);
    }
    return Verdict.pass(leadersByTerm.size() + " leader terms seen in " + samples + " samples: " + leadersByTerm);
  }

  @Override
  public void close() {
    stop.countDown();
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
