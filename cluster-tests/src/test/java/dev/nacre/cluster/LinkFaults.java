package dev.nacre.cluster;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The fault on every directed link between the members of one cluster; one instance per
 * {@link LocalCluster}, nothing static. A link {@code (from, to)} carries the calls (requests)
 * that {@code from} sends to {@code to}; the answer to a call that got through is never filtered.
 * A link without an entry has no fault. Randomness (loss, jitter) comes from one seeded
 * {@link Random}, printed by the harness so that a failing run can be replayed as far as thread
 * scheduling allows. Thread-safe: every method synchronizes on this table.
 */
final class LinkFaults implements LinkFilter {

  /** What a directed link does to the calls sent over it. */
  sealed interface Fault {}

  /** Every call is dropped. */
  record Cut() implements Fault {}

  /** Each call is dropped with probability {@code p}. */
  record Lossy(double p) implements Fault {
    Lossy {
      if (p < 0 || p > 1) {
        throw new IllegalArgumentException("loss probability must be within [0, 1], was " + p);
      }
    }
  }

  /** Each call is held for {@code fixed} plus a uniform random part of {@code jitter}. */
  record Delay(Duration fixed, Duration jitter) implements Fault {}

  record Link(String from, String to) {}

  private final Map<Link, Fault> faults = new HashMap<>();
  private final Random random;
  private final long seed;
  private final AtomicLong dropped = new AtomicLong();
  private final Pauses pauses;

  LinkFaults(long seed) {
    this(seed, new Pauses());
  }

  /**
   * @param pauses members whose calls, both those they send and those they receive, are held
   *     until they wake (a cut or a loss on the link still drops them first)
   */
  LinkFaults(long seed, Pauses pauses) {
    this.seed = seed;
    this.random = new Random(seed);
    this.pauses = pauses;
  }

  Pauses pauses() {
    return pauses;
  }

  long seed() {
    return seed;
  }

  /** Calls dropped so far on any link, to check that a fault was exercised. */
  long dropped() {
    return dropped.get();
  }

  /** Cuts every link between {@code side} and {@code others}, both directions. */
  synchronized void partition(Set<String> side, Set<String> others) {
    for (String a : side) {
      for (String b : others) {
        faults.put(new Link(a, b), new Cut());
        faults.put(new Link(b, a), new Cut());
      }
    }
  }

  /** Cuts the calls that {@code from} sends to {@code to}; the other direction is untouched. */
  synchronized void cutOneWay(String from, String to) {
    faults.put(new Link(from, to), new Cut());
  }

  /** Cuts every link to and from {@code member} among {@code all}. */
  synchronized void isolate(String member, Set<String> all) {
    for (String other : all) {
      if (!other.equals(member)) {
        faults.put(new Link(member, other), new Cut());
        faults.put(new Link(other, member), new Cut());
      }
    }
  }

  /** Drops each call with probability {@code p} on every link among {@code all}. */
  synchronized void lossy(double p, Set<String> all) {
    everyLink(all, new Lossy(p));
  }

  /** Delays every call on every link among {@code all}. */
  synchronized void delay(Duration fixed, Duration jitter, Set<String> all) {
    everyLink(all, new Delay(fixed, jitter));
  }

  /** Sets the fault of one directed link. */
  synchronized void set(String from, String to, Fault fault) {
    faults.put(new Link(from, to), fault);
  }

  private void everyLink(Set<String> all, Fault fault) {
    for (String a : all) {
      for (String b : all) {
        if (!a.equals(b)) {
          faults.put(new Link(a, b), fault);
        }
      }
    }
  }

  /** Removes every fault. */
  synchronized void heal() {
    faults.clear();
  }

  /** Removes the fault of one directed link. */
  synchronized void heal(String from, String to) {
    faults.remove(new Link(from, to));
  }

  /** Removes the faults of every link to or from {@code member}. */
  synchronized void healMember(String member) {
    faults.keySet().removeIf(l -> l.from().equals(member) || l.to().equals(member));
  }

  synchronized Map<Link, Fault> snapshot() {
    return Map.copyOf(faults);
  }

  @Override
  public Decision decide(String from, String to) {
    Decision d = decideLink(from, to);
    if (d.dropped()) {
      return d;
    }
    Duration paused = pauses.remaining(from);
    Duration pausedTo = pauses.remaining(to);
    if (pausedTo.compareTo(paused) > 0) {
      paused = pausedTo;
    }
    return paused.isZero() ? d : Decision.delay(d.delay().plus(paused));
  }

  private Decision decideLink(String from, String to) {
    Decision d;
    synchronized (this) {
      Fault f = faults.get(new Link(from, to));
      if (f == null) {
        return Decision.PASS;
      }
      if (f instanceof Lossy l) {
        d = random.nextDouble() < l.p() ? Decision.DROP : Decision.PASS;
      } else if (f instanceof Delay dl) {
        long jitter = dl.jitter().isZero() ? 0 : (long) (random.nextDouble() * dl.jitter().toNanos());
        d = Decision.delay(dl.fixed().plusNanos(jitter));
      } else {
        d = Decision.DROP;
      }
    }
    if (d.dropped()) {
      dropped.incrementAndGet();
    }
    return d;
  }

  @Override
  public synchronized String toString() {
    return "LinkFaults(seed " + seed + ") " + faults + " " + pauses;
  }
}
