package dev.nacre.consensus.distro;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Connects a few cores synchronously for unit tests: every message is delivered at once, unless
 * its link is cut (the send fails at once) or the next batch on it is set to be lost after being
 * acknowledged (a receiver that lost data). Keeps each member's handler view from the effects,
 * plus its own local writes, so tests can compare it with the core.
 */
final class Wire {
  final Map<String, DistroCore> cores = new TreeMap<>();
  final Map<String, Map<String, DistroRecord>> views = new HashMap<>();
  final Set<String> cutLinks = new HashSet<>(); // "a>b"
  final Set<String> loseNextBatch = new HashSet<>();
  final List<String> log = new ArrayList<>();
  long now;
  private final DistroConfig config;

  Wire(DistroConfig config, String... members) {
    this.config = config;
    for (String m : members) {
      cores.put(m, new DistroCore(m, List.of(members), config, 0));
      views.put(m, new LinkedHashMap<>());
    }
  }

  /** Starts every core and runs until quiet: all are ready afterwards. */
  Wire startAll() {
    cores.forEach((id, c) -> run(id, c.start(now)));
    return this;
  }

  /** Replaces a member by a fresh run of it (state lost) and starts it. */
  void restart(String id) {
    DistroCore fresh = new DistroCore(id, new java.util.ArrayList<>(cores.keySet()),
        config, now);
    cores.put(id, fresh);
    views.put(id, new LinkedHashMap<>());
    run(id, fresh.start(now));
  }

  /**
   * As {@link #restart}, but the fresh run sees every other member DOWN when it starts (its first
   * pings found no one), so it is ready at once with nothing loaded.
   */
  void restartAlone(String id) {
    DistroCore fresh = new DistroCore(id, new java.util.ArrayList<>(cores.keySet()),
        config, now);
    cores.put(id, fresh);
    views.put(id, new LinkedHashMap<>());
    for (String other : cores.keySet()) {
      if (!other.equals(id)) {
        run(id, fresh.memberDown(other, now));
      }
    }
    run(id, fresh.start(now));
  }

  DistroCore core(String id) {
    return cores.get(id);
  }

  void write(String node, String key, String value) {
    run(node, core(node).localChange(key, Effects.bytes(value), now));
    views.get(node).put(key, core(node).record(key).orElseThrow());
  }

  void delete(String node, String key) {
    run(node, core(node).localDelete(key, now));
    views.get(node).remove(key);
  }

  /** Advances time to {@code t} in 10 ms ticks, delivering everything on the way. */
  void advanceTo(long t) {
    while (now < t) {
      now = Math.min(t, now + 10);
      cores.forEach((id, c) -> run(id, c.tick(now)));
    }
  }

  void cut(String from, String to) {
    cutLinks.add(from + ">" + to);
  }

  void heal() {
    cutLinks.clear();
  }

  /** Handles {@code effects} of {@code node} and everything they cause, in order. */
  void run(String node, List<DistroEffect> effects) {
    ArrayDeque<Map.Entry<String, DistroEffect>> queue = new ArrayDeque<>(tag(node, effects));
    while (!queue.isEmpty()) {
      var next = queue.poll();
      queue.addAll(deliver(next.getKey(), next.getValue()));
    }
  }

  private List<Map.Entry<String, DistroEffect>> deliver(String from, DistroEffect e) {
    Map<String, DistroRecord> view = views.get(from);
    if (e instanceof DistroEffect.ApplyRecords a) {
      a.records().forEach(r -> {
        if (r.tombstone()) {
          view.remove(r.key());
        } else {
          view.put(r.key(), r);
        }
      });
    } else if (e instanceof DistroEffect.RemoveRecords r) {
      r.records().forEach(x -> view.remove(x.key()));
    } else if (e instanceof DistroEffect.SendBatch s) {
      DistroCore sender = core(from);
      long seq = s.batch().sequence();
      log.add(from + ">" + s.peer() + " batch " + s.batch().records().size()
          + (s.batch().digest().isPresent() ? "+digest" : ""));
      if (cutLinks.contains(from + ">" + s.peer())) {
        return tag(from, sender.batchFailed(s.peer(), seq, now));
      }
      List<Map.Entry<String, DistroEffect>> result = new ArrayList<>();
      if (!loseNextBatch.remove(from + ">" + s.peer())) {
        result.addAll(tag(s.peer(), core(s.peer()).batchReceived(s.batch(), now)));
      }
      result.addAll(tag(from, sender.batchAcked(s.peer(), seq, now)));
      return result;
    } else if (e instanceof DistroEffect.ContinueApply) {
      return tag(from, core(from).continueApply(now));
    } else if (e instanceof DistroEffect.RequestSnapshot r) {
      log.add(from + ">" + r.peer() + " snapshot " + r.request().scope());
      if (cutLinks.contains(from + ">" + r.peer())) {
        return tag(from, core(from).snapshotFailed(r.requestId(), now));
      }
      DistroSnapshot snap = core(r.peer()).beginSnapshot(r.request()).get();
      return tag(from, core(from).snapshotReceived(r.requestId(), snap, now));
    }
    return List.of();
  }

  private static List<Map.Entry<String, DistroEffect>> tag(String node, List<DistroEffect> effects) {
    return effects.stream().map(x -> Map.entry(node, x)).toList();
  }

  /** Asserts every member's handler view equals its core's live records. */
  void assertViewsMatchCores() {
    cores.forEach((id, c) -> {
      if (!views.get(id).equals(c.liveRecords())) {
        throw new AssertionError("handler view of " + id + " " + views.get(id)
            + " differs from its core " + c.liveRecords());
      }
    });
  }
}
