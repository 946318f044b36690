package dev.nacre.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A seeded, timed list of fault events for an N-node cluster: the same (seed, nodes, duration,
 * mix) always gives the same schedule. Pure: nothing here touches a cluster (see
 * {@link NemesisExecutor}).
 *
 * <p>Faults run on two tracks, each with at most one fault at a time: the network (partition of
 * random halves, one node isolated, a one-way cut, lossy links, delay and jitter; ended by a heal)
 * and the nodes (kill then restart, wipe then restart, pause, cut off from clients). The rules
 * that keep a schedule meaningful, checked by {@link #violations()}:
 * <ul>
 *   <li>at every moment, the nodes that are down or paused plus those on the minority side of the
 *       network fault are a strict minority, so a majority can always make progress;
 *   <li>a wipe never overlaps a network fault, and nothing starts within {@link #WIPE_SETTLE} of a
 *       wiped node's restart (Raft cannot keep a committed entry whose only copies were on the
 *       wiped disk and on a node cut off right after; the executor also waits for the catch-up);
 *   <li>every fault ends before the quiet phase, which starts with a full heal and lasts at least
 *       {@link Params#quiet()}, for convergence and durability checks.
 * </ul>
 */
record NemesisSchedule(long seed, Params params, List<Event> events) {
  /** Time after a wiped node's restart before any other fault starts. */
  static final Duration WIPE_SETTLE = Duration.ofSeconds(4);

  NemesisSchedule {
    events = List.copyOf(events);
  }

  /** The kinds of fault, for the mix. */
  enum Kind {
    PARTITION(true), ISOLATE(true), ONE_WAY(true), LOSSY(true), DELAY(true),
    KILL(false), WIPE(false), PAUSE(false), CLIENT_CUT(false);

    final boolean network;

    Kind(boolean network) {
      this.network = network;
    }
  }

  /** One fault action. Node numbers are indexes into the cluster. */
  sealed interface Fault {}

  /** Cuts every link between {@code side} (a strict minority) and the other nodes. */
  record Partition(Set<Integer> side) implements Fault {
    Partition {
      side = Collections.unmodifiableSet(new TreeSet<>(side));
    }
  }

  record Isolate(int node) implements Fault {}

  /** What {@code from} sends to {@code to} is dropped; the other direction works. */
  record CutOneWay(int from, int to) implements Fault {}

  /** Every link drops each call with probability {@code p}. */
  record Lossy(double p) implements Fault {}

  /** Every link delays each call by {@code fixed} plus up to {@code jitter}. */
  record Delay(Duration fixed, Duration jitter) implements Fault {}

  /** Ends the network fault. */
  record Heal() implements Fault {}

  record Kill(int node) implements Fault {}

  /** Stops the node and deletes its folder. */
  record Wipe(int node) implements Fault {}

  /** Starts a killed or wiped node; {@code wiped} if its disk was lost (the executor waits for its catch-up). */
  record Restart(int node, boolean wiped) implements Fault {}

  /** Pauses the node for {@code duration}; it wakes by itself. */
  record Pause(int node, Duration duration) implements Fault {}

  /** Clients can no longer reach the node (its peers still can). */
  record CutClients(int node) implements Fault {}

  record HealClients(int node) implements Fault {}

  /** Heals every network and client fault: the start of the quiet phase. */
  record HealAll() implements Fault {}

  /** A fault at an offset from the start of the schedule. */
  record Event(Duration at, Fault fault) {
    @Override
    public String toString() {
      return String.format(java.util.Locale.ROOT, "+%.1fs %s", at.toMillis() / 1000.0, fault);
    }
  }

  /**
   * @param nodes cluster size (3 or more)
   * @param duration the whole run: faults, then the quiet phase
   * @param quiet the quiet phase at the end (no fault); at least 3 s
   * @param mix relative weight of each kind; kinds absent or 0 never occur
   */
  record Params(int nodes, Duration duration, Duration quiet, Map<Kind, Integer> mix) {
    Params {
      if (nodes < 3) {
        throw new IllegalArgumentException("a nemesis needs 3 or more nodes (a majority survives a fault), was " + nodes);
      }
      if (quiet.compareTo(Duration.ofSeconds(3)) < 0 || duration.compareTo(quiet.plusSeconds(5)) < 0) {
        throw new IllegalArgumentException("need a quiet phase of 3 s or more and 5 s of faults before it: "
            + duration + ", quiet " + quiet);
      }
      Map<Kind, Integer> m = new EnumMap<>(Kind.class);
      m.putAll(mix);
      if (m.values().stream().anyMatch(w -> w < 0)) {
        throw new IllegalArgumentException("mix weights must be 0 or more: " + mix);
      }
      mix = Collections.unmodifiableMap(m);
    }

    /** Every kind, equally likely; a quiet phase of a fifth of the run (at least 10 s). */
    static Params everything(int nodes, Duration duration) {
      Map<Kind, Integer> all = new EnumMap<>(Kind.class);
      for (Kind k : Kind.values()) {
        all.put(k, 1);
      }
      Duration quiet = duration.dividedBy(5);
      return new Params(nodes, duration, quiet.compareTo(Duration.ofSeconds(10)) < 0 ? Duration.ofSeconds(10) : quiet, all);
    }

    Params withMix(Map<Kind, Integer> m) {
      return new Params(nodes, duration, quiet, m);
    }

    /** The largest number of nodes that may be unavailable at once: a strict minority. */
    int minority() {
      return (nodes - 1) / 2;
    }

    Duration faultsEnd() {
      return duration.minus(quiet);
    }
  }

  /** A fault in effect over [start, end) on one track, with the nodes it takes from the majority. */
  private record Window(long start, long end, Kind kind, Fault begin, Fault finish, Set<Integer> unavailable) {
    boolean overlaps(long s, long e) {
      return start < e && s < end;
    }
  }

  private static final long FIRST_FAULT_MS = 2_000;
  private static final long MIN_GAP_MS = 500;
  private static final long MAX_GAP_MS = 3_000;
  private static final long MIN_HOLD_MS = 1_500;
  private static final long MAX_HOLD_MS = 6_000;
  private static final long MAX_PAUSE_MS = 4_000;

  /** The schedule of {@code seed}; same inputs, same schedule. */
  static NemesisSchedule generate(long seed, Params params) {
    Random random = new Random(seed);
    long end = params.faultsEnd().toMillis();
    // Nodes first: their faults are the rarer ones (a wipe needs a stretch without network faults).
    List<Window> node = track(random, params, end, false, List.of());
    List<Window> network = track(random, params, end, true, node);
    List<Event> events = new ArrayList<>();
    for (Window w : network) {
      events.add(new Event(Duration.ofMillis(w.start()), w.begin()));
      events.add(new Event(Duration.ofMillis(w.end()), w.finish()));
    }
    for (Window w : node) {
      events.add(new Event(Duration.ofMillis(w.start()), w.begin()));
      if (w.finish() != null) {
        events.add(new Event(Duration.ofMillis(w.end()), w.finish()));
      }
    }
    events.add(new Event(Duration.ofMillis(end), new HealAll()));
    // Stable: at the same instant an end (heal, restart) stays before the start of the next fault.
    events.sort(Comparator.comparing(Event::at).thenComparing(e -> isStart(e.fault()) ? 1 : 0));
    return new NemesisSchedule(seed, params, events);
  }

  private static boolean isStart(Fault f) {
    return !(f instanceof Heal || f instanceof Restart || f instanceof HealClients || f instanceof HealAll);
  }

  private static List<Window> track(Random random, Params params, long end, boolean networkTrack, List<Window> other) {
    List<Kind> kinds = params.mix().entrySet().stream()
        .filter(e -> e.getKey().network == networkTrack && e.getValue() > 0).map(Map.Entry::getKey).toList();
    List<Window> out = new ArrayList<>();
    if (kinds.isEmpty()) {
      return out;
    }
    long t = FIRST_FAULT_MS + between(random, 0, MAX_GAP_MS);
    while (t + MIN_HOLD_MS <= end) {
      Kind kind = pick(random, kinds, params.mix());
      long hold = Math.min(between(random, MIN_HOLD_MS, kind == Kind.PAUSE ? MAX_PAUSE_MS : MAX_HOLD_MS), end - t);
      // A few draws of the nodes involved before giving this slot up.
      for (int attempt = 0; attempt < 3; attempt++) {
        Window w = window(random, params, kind, t, t + hold);
        if (allowed(w, other, params)) {
          out.add(w);
          t = w.end() + (kind == Kind.WIPE ? WIPE_SETTLE.toMillis() : 0);
          break;
        }
      }
      t += between(random, MIN_GAP_MS, MAX_GAP_MS);
    }
    return out;
  }

  private static Window window(Random random, Params params, Kind kind, long start, long end) {
    int n = params.nodes();
    int x = random.nextInt(n);
    return switch (kind) {
      case PARTITION -> {
        Set<Integer> side = new TreeSet<>(shuffled(random, n).subList(0, 1 + random.nextInt(params.minority())));
        yield new Window(start, end, kind, new Partition(side), new Heal(), side);
      }
      case ISOLATE -> new Window(start, end, kind, new Isolate(x), new Heal(), Set.of(x));
      case ONE_WAY -> {
        int to = (x + 1 + random.nextInt(n - 1)) % n;
        yield new Window(start, end, kind, new CutOneWay(x, to), new Heal(), Set.of());
      }
      case LOSSY -> new Window(start, end, kind, new Lossy(0.05 + 0.05 * random.nextInt(4)), new Heal(), Set.of());
      case DELAY -> new Window(start, end, kind,
          new Delay(Duration.ofMillis(5 + random.nextInt(46)), Duration.ofMillis(random.nextInt(51))), new Heal(), Set.of());
      case KILL -> new Window(start, end, kind, new Kill(x), new Restart(x, false), Set.of(x));
      case WIPE -> new Window(start, end, kind, new Wipe(x), new Restart(x, true), Set.of(x));
      case PAUSE -> new Window(start, end, kind, new Pause(x, Duration.ofMillis(end - start)), null, Set.of(x));
      case CLIENT_CUT -> new Window(start, end, kind, new CutClients(x), new HealClients(x), Set.of());
    };
  }

  /** Whether {@code w} keeps the rules given the windows of the other track. */
  private static boolean allowed(Window w, List<Window> other, Params params) {
    long settle = WIPE_SETTLE.toMillis();
    for (Window o : other) {
      if (o.overlaps(w.start(), w.end())) {
        Set<Integer> down = new TreeSet<>(o.unavailable());
        down.addAll(w.unavailable());
        if (down.size() > params.minority()) {
          return false;
        }
      }
      // Nothing else runs from a wipe until its node has settled after the restart.
      if (w.kind() == Kind.WIPE && o.overlaps(w.start(), w.end() + settle)
          || o.kind() == Kind.WIPE && w.overlaps(o.start(), o.end() + settle)) {
        return false;
      }
    }
    return true;
  }

  private static long between(Random random, long min, long max) {
    return min + (long) (random.nextDouble() * (max - min));
  }

  private static Kind pick(Random random, List<Kind> kinds, Map<Kind, Integer> mix) {
    int total = kinds.stream().mapToInt(mix::get).sum();
    int r = random.nextInt(total);
    for (Kind k : kinds) {
      r -= mix.get(k);
      if (r < 0) {
        return k;
      }
    }
    throw new IllegalStateException("unreachable: weights " + mix);
  }

  private static List<Integer> shuffled(Random random, int n) {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      order.add(i);
    }
    Collections.shuffle(order, random);
    return order;
  }

  /**
   * Replays the events and lists every broken rule (empty when the schedule is meaningful): too
   * many nodes unavailable at once, a fault left in effect at the quiet phase, a node restarted
   * that was not down, a wipe next to a network fault, events out of order or past the end.
   */
  List<String> violations() {
    List<String> out = new ArrayList<>();
    Set<Integer> down = new TreeSet<>();
    Set<Integer> wiped = new TreeSet<>();
    Set<Integer> cutOff = new TreeSet<>();
    Set<Integer> netUnavailable = new TreeSet<>();
    boolean networkFault = false;
    long[] pausedUntil = new long[params.nodes()];
    long lastWipeRestart = Long.MIN_VALUE / 2;
    Duration prev = Duration.ZERO;
    boolean quiet = false;
    for (Event e : events) {
      long at = e.at().toMillis();
      if (e.at().compareTo(prev) < 0) {
        out.add("out of order: " + e);
      }
      prev = e.at();
      if (quiet) {
        out.add("after the final heal: " + e);
      }
      if (isStart(e.fault()) && at < lastWipeRestart + WIPE_SETTLE.toMillis()) {
        out.add("starts while a wiped node settles: " + e);
      }
      Fault f = e.fault();
      if (f instanceof Partition || f instanceof Isolate || f instanceof CutOneWay || f instanceof Lossy
          || f instanceof Delay) {
        check(out, !networkFault, "two network faults at once: " + e);
        networkFault = true;
      }
      if (f instanceof Partition p) {
        netUnavailable.addAll(p.side());
        check(out, p.side().size() <= params.minority(), "partition side is no minority: " + e);
      } else if (f instanceof Isolate i) {
        netUnavailable.add(i.node());
      } else if (f instanceof CutOneWay c) {
        check(out, c.from() != c.to(), "a cut from a node to itself: " + e);
      } else if (f instanceof Lossy l) {
        check(out, l.p() > 0 && l.p() < 0.5, "loss out of range: " + e);
      } else if (f instanceof Heal) {
        check(out, networkFault, "heal without a network fault: " + e);
        networkFault = false;
        netUnavailable.clear();
      } else if (f instanceof Kill k) {
        check(out, down.add(k.node()), "killed twice: " + e);
      } else if (f instanceof Wipe w) {
        check(out, down.add(w.node()), "wiped while down: " + e);
        wiped.add(w.node());
        check(out, !networkFault, "a wipe during a network fault: " + e);
      } else if (f instanceof Restart r) {
        check(out, down.remove(r.node()), "restart of a node that is up: " + e);
        check(out, r.wiped() == wiped.remove(r.node()), "restart's wiped flag is wrong: " + e);
        check(out, !r.wiped() || !networkFault, "a wiped node restarted during a network fault: " + e);
        if (r.wiped()) {
          lastWipeRestart = at;
        }
      } else if (f instanceof Pause p) {
        pausedUntil[p.node()] = Math.max(pausedUntil[p.node()], at + p.duration().toMillis());
        check(out, at + p.duration().toMillis() <= params.faultsEnd().toMillis(), "a pause into the quiet phase: " + e);
      } else if (f instanceof CutClients c) {
        check(out, cutOff.add(c.node()), "cut off twice: " + e);
      } else if (f instanceof HealClients c) {
        check(out, cutOff.remove(c.node()), "heal of clients not cut off: " + e);
      } else if (f instanceof HealAll) {
        quiet = true;
        check(out, e.at().equals(params.faultsEnd()), "final heal not at the start of the quiet phase: " + e);
        check(out, !networkFault && down.isEmpty() && cutOff.isEmpty(),
            "faults left at the quiet phase: network=" + networkFault + " down=" + down + " cut off=" + cutOff);
      }
      Set<Integer> unavailable = new TreeSet<>(down);
      unavailable.addAll(netUnavailable);
      for (int i = 0; i < pausedUntil.length; i++) {
        if (pausedUntil[i] > at) {
          unavailable.add(i);
        }
      }
      check(out, unavailable.size() <= params.minority(), "no majority left after " + e + ": unavailable " + unavailable);
    }
    check(out, quiet, "no final heal");
    return out;
  }

  private static void check(List<String> out, boolean ok, String message) {
    if (!ok) {
      out.add(message);
    }
  }

  long count(Class<? extends Fault> type) {
    return events.stream().filter(e -> type.isInstance(e.fault())).count();
  }

  @Override
  public String toString() {
    return "nemesis seed " + seed + ", " + params.nodes() + " nodes, " + params.duration().toSeconds() + " s (quiet "
        + params.quiet().toSeconds() + " s), " + events.size() + " events:\n  "
        + events.stream().map(Event::toString).collect(Collectors.joining("\n  "));
  }
}
