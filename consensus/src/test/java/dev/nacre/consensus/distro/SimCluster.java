package dev.nacre.consensus.distro;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * N Distro cores on a {@link SimNetwork} with a fake clock, all driven by one seeded random:
 * random local writes, drops, cut links, partitions, crashes with restarts (state lost), false
 * DOWN suspicions. {@link #checkInvariants()} runs after every step; {@link #assertConverged()}
 * at the end.
 */
final class SimCluster {
  static final long STEP_MILLIS = 5;
  static final DistroConfig CONFIG = DistroConfig.builder()
      .maxBatchSize(4)
      .flushDelay(Duration.ofMillis(200))
      .verifyInterval(Duration.ofSeconds(5))
      .retryBackoff(Duration.ofMillis(50), Duration.ofSeconds(1))
      .requestTimeout(Duration.ofMillis(500))
      .maxPendingKeysPerPeer(12)
      .ownerGracePeriod(Duration.ofSeconds(3))
      .tombstoneRetention(Duration.ofSeconds(8))
      .initialLoadTimeout(Duration.ofSeconds(3))
      .build();
  static final int KEYS = 30;
  /** Replaying a seed with -Ddistro.sim.trace=KEY notes every effect that concerns KEY. */
  static final String TRACE_KEY = System.getProperty("distro.sim.trace");

  /** One member: its current run (a restart makes a new core and forgets everything). */
  final class Node {
    final String id;
    DistroCore core;
    int run;
    boolean alive = true;
    final TreeSet<String> upView = new TreeSet<>();
    final Map<String, DistroRecord> handlerView = new HashMap<>();
    final Map<String, DistroRecord> lastWriteThisRun = new HashMap<>();
    final Map<String, Long> droppedCountAtWrite = new HashMap<>();

    Node(String id) {
      this.id = id;
    }

    void boot() {
      run++;
      alive = true;
      core = new DistroCore(id, ids, CONFIG, now);
      upView.clear();
      upView.addAll(ids);
      handlerView.clear();
      lastWriteThisRun.clear();
      droppedCountAtWrite.clear();
      handle(this, core.start(now));
    }
  }

  final long seed;
  final Random random;
  final SimNetwork net;
  final List<String> ids = new ArrayList<>();
  final Map<String, Node> nodes = new TreeMap<>();
  final Map<String, DistroRecord> produced = new HashMap<>(); // owner|key|revision
  final ArrayDeque<String> history = new ArrayDeque<>();
  long now;
  /** Scheduled fault actions of an earlier epoch do nothing: {@link #heal()} ends them all. */
  int faultEpoch;
  long writes;
  long crashes;

  SimCluster(int size, long seed) {
    this.seed = seed;
    this.random = new Random(seed);
    this.net = new SimNetwork(random);
    for (int i = 1; i <= size; i++) {
      ids.add("n" + i);
    }
    ids.forEach(id -> nodes.put(id, new Node(id)));
    nodes.values().forEach(Node::boot);
  }

  // ---- driving ----

  /** One step: deliver due messages, tick every live core, maybe a write and a fault. */
  void step(boolean faults, boolean writesOn) {
    now += STEP_MILLIS;
    net.deliverUntil(now);
    for (Node n : nodes.values()) {
      if (n.alive) {
        handle(n, n.core.tick(now));
      }
    }
    if (writesOn && random.nextInt(3) == 0) {
      randomWrite();
    }
    if (faults && random.nextInt(100) == 0) {
      randomFault();
    }
    checkInvariants();
  }

  void randomWrite() {
    Node n = nodes.get(ids.get(random.nextInt(ids.size())));
    if (!n.alive) {
      return;
    }
    String key = "k" + random.nextInt(KEYS);
    boolean responsible = new OwnershipMapper(n.upView).isResponsible(n.id, key);
    if (!responsible && random.nextInt(5) != 0) {
      return; // mostly the responsible member writes; sometimes another (a client's connection)
    }
    List<DistroEffect> effects = random.nextInt(4) == 0
        ? n.core.localDelete(key, now)
        : n.core.localChange(key, Effects.bytes(n.id + "/" + n.run + "/" + writes), now);
    DistroRecord written = n.core.record(key).orElseThrow();
    DistroRecord previous = n.lastWriteThisRun.get(key);
    if (previous != null && written.revision() <= previous.revision()) {
      fail("revision did not increase for " + key + ": " + previous + " then " + written);
    }
    produced.put(written.owner() + "|" + key + "|" + written.revision(), written);
    n.lastWriteThisRun.put(key, written);
    n.droppedCountAtWrite.put(key, n.core.droppedWithoutReplacement());
    if (written.tombstone()) {
      n.handlerView.remove(key);
    } else {
      n.handlerView.put(key, written);
    }
    writes++;
    note(n.id + " wrote " + written);
    handle(n, effects);
  }

  /** Schedules the end (or a later step) of a fault; {@link #heal()} cancels it. */
  void later(long at, Runnable action) {
    int epoch = faultEpoch;
    net.schedule(at, () -> {
      if (epoch == faultEpoch) {
        action.run();
      }
    });
  }

  void randomFault() {
    String a = ids.get(random.nextInt(ids.size()));
    String b = ids.get(random.nextInt(ids.size()));
    long duration = 300 + random.nextInt(7000);
    switch (random.nextInt(5)) {
      case 0 -> { // lossy link
        double rate = random.nextDouble() * 0.4;
        net.setDropRate(a, b, rate);
        later(now + duration, () -> net.setDropRate(a, b, 0));
        note("link " + a + ">" + b + " drops " + rate);
      }
      case 1 -> { // one-way cut
        net.cut(a, b);
        later(now + duration, () -> net.restore(a, b));
        note("cut " + a + ">" + b);
      }
      case 2 -> { // isolate a member both ways, and let some members suspect it
        for (String other : ids) {
          net.cut(a, other);
          net.cut(other, a);
        }
        later(now + duration, () -> ids.forEach(o -> {
          net.restore(a, o);
          net.restore(o, a);
        }));
        note("isolate " + a + " for " + duration);
        suspect(b, a, duration);
      }
      case 3 -> suspect(a, b, duration);
      default -> crash(a, duration);
    }
  }

  /** {@code observer} marks {@code member} DOWN for a while, whatever the truth. */
  void suspect(String observer, String member, long duration) {
    if (observer.equals(member)) {
      return;
    }
    membership(observer, member, false, now + random.nextInt(200));
    membership(observer, member, true, now + duration);
  }

  void crash(String id, long downFor) {
    Node n = nodes.get(id);
    long crashedCount = nodes.values().stream().filter(x -> !x.alive).count();
    if (!n.alive || crashedCount >= (ids.size() - 1) / 2) {
      return;
    }
    n.alive = false;
    crashes++;
    note("crash " + id + " for " + downFor);
    for (String o : ids) {
      membership(o, id, false, now + 100 + random.nextInt(1500));
    }
    later(now + downFor, () -> restart(id));
  }

  void restart(String id) {
    Node n = nodes.get(id);
    if (n.alive) {
      return;
    }
    note("restart " + id);
    n.boot();
    for (String o : ids) {
      membership(o, id, true, now + 50 + random.nextInt(800));
      if (!nodes.get(o).alive) {
        membership(id, o, false, now + 100 + random.nextInt(500));
      }
    }
  }

  void membership(String observer, String member, boolean up, long at) {
    if (observer.equals(member)) {
      return;
    }
    later(at, () -> {
      Node o = nodes.get(observer);
      if (!o.alive) {
        return;
      }
      if (up) {
        o.upView.add(member);
      } else {
        o.upView.remove(member);
      }
      note(observer + " sees " + member + (up ? " UP" : " DOWN"));
      handle(o, up ? o.core.memberUp(member, now) : o.core.memberDown(member, now));
    });
  }

  /** Ends every fault, restarts crashed members, and tells everyone that everyone is UP. */
  void heal() {
    note("heal");
    faultEpoch++;
    net.healAll();
    nodes.values().stream().filter(n -> !n.alive).forEach(n -> {
      note("restart " + n.id);
      n.boot();
    });
    for (Node o : nodes.values()) {
      for (String m : ids) {
        if (!m.equals(o.id)) {
          o.upView.add(m);
          handle(o, o.core.memberUp(m, now));
        }
      }
    }
  }

  // ---- effects ----

  void handle(Node n, List<DistroEffect> effects) {
    if (TRACE_KEY != null) {
      trace(n, effects);
    }
    for (DistroEffect e : effects) {
      if (e instanceof DistroEffect.ApplyRecords a) {
        a.records().forEach(r -> {
          if (r.tombstone()) {
            n.handlerView.remove(r.key());
          } else {
            n.handlerView.put(r.key(), r);
          }
        });
      } else if (e instanceof DistroEffect.RemoveRecords r) {
        r.records().forEach(x -> n.handlerView.remove(x.key()));
      } else if (e instanceof DistroEffect.SendBatch s) {
        sendBatch(n, n.run, s);
      } else if (e instanceof DistroEffect.RequestSnapshot r) {
        requestSnapshot(n, n.run, r);
      } else if (e instanceof DistroEffect.BecameReady b) {
        note(n.id + " ready loaded=" + b.loadedFromPeer());
      }
    }
  }

  private void sendBatch(Node from, int run, DistroEffect.SendBatch s) {
    Node to = nodes.get(s.peer());
    long seq = s.batch().sequence();
    Runnable failed = () -> onSender(from, run, () -> from.core.batchFailed(s.peer(), seq, now));
    net.send(now, from.id, to.id, () -> {
      if (!to.alive) {
        return; // lost with the process; the sender times out
      }
      handle(to, to.core.batchReceived(s.batch(), now));
      net.send(now, to.id, from.id,
          () -> onSender(from, run, () -> from.core.batchAcked(s.peer(), seq, now)), failed);
    }, failed);
  }

  private void requestSnapshot(Node from, int run, DistroEffect.RequestSnapshot r) {
    Node to = nodes.get(r.peer());
    Runnable failed = () -> onSender(from, run, () -> from.core.snapshotFailed(r.requestId(), now));
    net.send(now, from.id, to.id, () -> {
      if (!to.alive) {
        return;
      }
      DistroSnapshot snap = to.core.snapshotFor(r.request());
      net.send(now, to.id, from.id, () -> onSender(from, run,
          () -> from.core.snapshotReceived(r.requestId(), snap, now)), failed);
    }, failed);
  }

  /** Answers reach only the run of the member that asked: a restart loses its open calls. */
  private void onSender(Node n, int run, java.util.function.Supplier<List<DistroEffect>> event) {
    if (n.alive && n.run == run) {
      handle(n, event.get());
    }
  }

  // ---- checks ----

  void checkInvariants() {
    for (Node n : nodes.values()) {
      if (!n.alive) {
        continue;
      }
      for (DistroRecord r : n.core.allRecords()) {
        DistroRecord original = produced.get(r.owner() + "|" + r.key() + "|" + r.revision());
        if (!r.equals(original)) {
          fail(n.id + " holds " + r + " that its owner never wrote");
        }
      }
      if (!n.handlerView.equals(n.core.liveRecords())) {
        fail(n.id + " handler view differs from its core");
      }
      for (PeerPipeline p : n.core.pipelines()) {
        if (p.pendingCount() > CONFIG.maxPendingKeysPerPeer()) {
          fail(n.id + " queues " + p.pendingCount() + " keys for " + p.peer());
        }
      }
      n.lastWriteThisRun.forEach((key, written) -> n.core.record(key).ifPresent(held -> {
        boolean droppedSince =
            n.core.droppedWithoutReplacement() > n.droppedCountAtWrite.get(key);
        if (!held.equals(written) && !held.isNewerThan(written) && !droppedSince) {
          fail(n.id + " holds " + held + " older than its own write " + written);
        }
      }));
    }
  }

  void assertConverged() {
    Node first = nodes.values().iterator().next();
    Map<String, DistroRecord> reference = new TreeMap<>(first.core.liveRecords());
    for (Node n : nodes.values()) {
      if (!n.alive || !n.core.isReady()) {
        fail(n.id + " is not up and ready at the end");
      }
      Map<String, DistroRecord> view = new TreeMap<>(n.core.liveRecords());
      if (!view.equals(reference)) {
        List<String> diff = new ArrayList<>();
        TreeSet<String> keys = new TreeSet<>(view.keySet());
        keys.addAll(reference.keySet());
        keys.stream().filter(k -> !java.util.Objects.equals(view.get(k), reference.get(k)))
            .forEach(k -> diff.add(k + ": " + first.id + "=" + reference.get(k) + " " + n.id + "="
                + view.get(k)));
        fail("views differ: " + diff);
      }
      if (!n.handlerView.equals(view)) {
        fail(n.id + " handler view differs from its core at the end");
      }
    }
    for (Node n : nodes.values()) {
      for (String owner : ids) {
        if (!liveOwnedBy(n, owner).equals(liveOwnedBy(nodes.get(owner), owner))) {
          fail(n.id + "'s view of " + owner + "'s records differs from " + owner + "'s own");
        }
      }
    }
  }

  private void trace(Node n, List<DistroEffect> effects) {
    for (DistroEffect e : effects) {
      List<DistroRecord> records = e instanceof DistroEffect.ApplyRecords a ? a.records()
          : e instanceof DistroEffect.RemoveRecords r ? r.records()
          : e instanceof DistroEffect.SendBatch s ? s.batch().records() : List.of();
      records.stream().filter(r -> r.key().equals(TRACE_KEY)).forEach(r -> note(n.id + " "
          + e.getClass().getSimpleName() + (e instanceof DistroEffect.SendBatch s ? " to " + s.peer() : "")
          + " " + r));
      if (e instanceof DistroEffect.RequestSnapshot r) {
        note(n.id + " asks " + r.peer() + " for " + r.request().scope());
      }
    }
  }

  static Map<String, DistroRecord> liveOwnedBy(Node n, String owner) {
    Map<String, DistroRecord> out = new TreeMap<>();
    n.core.liveRecords().forEach((k, r) -> {
      if (r.owner().equals(owner)) {
        out.put(k, r);
      }
    });
    return out;
  }

  void note(String event) {
    history.addLast(now + " " + event);
    if (history.size() > (TRACE_KEY == null ? 60 : 400)) {
      history.removeFirst();
    }
  }

  void fail(String what) {
    throw new AssertionError("seed " + seed + " at " + now + " ms: " + what
        + "\nlast events:\n  " + String.join("\n  ", history));
  }

  Map<String, Object> stats() {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("writes", writes);
    s.put("crashes", crashes);
    s.put("delivered", net.delivered);
    s.put("dropped", net.dropped);
    s.put("keys", nodes.values().iterator().next().core.liveRecords().size());
    s.put("resyncs", nodes.values().stream().flatMap(n -> n.core.pipelines().stream())
        .mapToLong(PeerPipeline::resyncCount).sum());
    return s;
  }
}
