package dev.nacre.cluster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;

/** Starts several stopped nodes of a {@link LocalCluster} at the same time, one thread each. */
final class NodeStarter {
  /** A node start waits for its peers' pings and the ephemeral snapshot; far less than this. */
  private static final long START_BOUND_MS = 60_000;

  private NodeStarter() {}

  /** Returns once every node in {@code indexes} is up; throws the first start failure. */
  static void startTogether(LocalCluster cluster, Collection<Integer> indexes, Supplier<String> state) {
    List<Thread> starters = new ArrayList<>();
    List<RuntimeException> errors = Collections.synchronizedList(new ArrayList<>());
    for (int i : indexes) {
      Thread t = new Thread(() -> {
        try {
          cluster.startNode(i);
        } catch (RuntimeException e) {
          errors.add(e);
        }
      }, "start-node-" + i);
      starters.add(t);
      t.start();
    }
    for (Thread t : starters) {
      try {
        t.join(START_BOUND_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while starting nodes", e);
      }
      if (t.isAlive()) {
        throw new IllegalStateException(t.getName() + " did not start within " + START_BOUND_MS + " ms\n" + state.get());
      }
    }
    if (!errors.isEmpty()) {
      throw errors.get(0);
    }
  }
}
