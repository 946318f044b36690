package dev.nacre.consensus.distro;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;

/**
 * A simulated network for {@link SimCluster}: every message is an action run at its delivery
 * time; per directed link a drop rate and a cut switch, driven by the cluster's seeded random.
 * A dropped message vanishes (the sender finds out by its own timeout); a message on a cut link
 * fails fast, like a refused connection.
 */
final class SimNetwork {
  private record Delivery(long at, long seq, Runnable action) {}

  private final Random random;
  private final PriorityQueue<Delivery> queue = new PriorityQueue<>(
      (x, y) -> x.at != y.at ? Long.compare(x.at, y.at) : Long.compare(x.seq, y.seq));
  private final Map<String, Double> dropRate = new HashMap<>();
  private final Set<String> cut = new HashSet<>();
  private long seq;
  long delivered;
  long dropped;

  SimNetwork(Random random) {
    this.random = random;
  }

  /** Outcome of sending on a link. */
  enum Fate { DELIVERED, DROPPED, REFUSED }

  /**
   * Sends from {@code from} to {@code to}: schedules {@code onArrival} after a random delay, or
   * {@code onRefused} soon when the link is cut, or nothing when the message is dropped.
   */
  Fate send(long now, String from, String to, Runnable onArrival, Runnable onRefused) {
    String link = from + ">" + to;
    if (cut.contains(link)) {
      schedule(now + 1, onRefused);
      return Fate.REFUSED;
    }
    if (random.nextDouble() < dropRate.getOrDefault(link, 0.0)) {
      dropped++;
      return Fate.DROPPED;
    }
    schedule(now + 1 + random.nextInt(40), onArrival);
    delivered++;
    return Fate.DELIVERED;
  }

  void schedule(long at, Runnable action) {
    queue.add(new Delivery(at, seq++, action));
  }

  /** Runs every action due at or before {@code now}, in time order. */
  void deliverUntil(long now) {
    while (!queue.isEmpty() && queue.peek().at <= now) {
      queue.poll().action.run();
    }
  }

  void setDropRate(String from, String to, double rate) {
    dropRate.put(from + ">" + to, rate);
  }

  void cut(String from, String to) {
    cut.add(from + ">" + to);
  }

  void restore(String from, String to) {
    cut.remove(from + ">" + to);
  }

  boolean isCut(String from, String to) {
    return cut.contains(from + ">" + to);
  }

  void healAll() {
    cut.clear();
    dropRate.clear();
  }
}
