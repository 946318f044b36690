package dev.nacre.cluster;

import dev.nacre.cluster.check.Verdict;
import dev.nacre.consensus.raft.RaftStatus;
import dev.nacre.node.Node;
import java.util.ArrayList;
import java.util.List;
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
  /** One map per Raft history: wiping every disk starts a new one, whose terms start again at 1. */
  private final List<Map<Long, Set<String>>> epochs = new ArrayList<>(List.of(new TreeMap<>()));
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
          epochs.get(epochs.size() - 1).computeIfAbsent(a.term(), t -> new TreeSet<>()).add(cluster.address(i));
        }
      }
    }
    synchronized (this) {
      samples++;
    }
  }

  /** Every node's Raft state was wiped: terms start again, and are judged apart from the old ones. */
  synchronized void newRaftHistory() {
    epochs.add(new TreeMap<>());
  }

  /** Stops sampling and judges what was seen. */
  Verdict verdict() {
    close();
    synchronized (this) {
      List<String> two = new ArrayList<>();
      for (int e = 0; e < epochs.size(); e++) {
        for (Map.Entry<Long, Set<String>> term : epochs.get(e).entrySet()) {
          if (term.getValue().size() > 1) {
            two.add((epochs.size() > 1 ? "history " + e + " " : "") + "term " + term.getKey() + ": " + term.getValue());
          }
        }
      }
      if (!two.isEmpty()) {
        return Verdict.fail("two leaders in one term: " + two);
      }
      return Verdict.pass("one leader per term, in " + samples + " samples: " + String.join(" then ",
          epochs.stream().map(Object::toString).toList()));
    }
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
