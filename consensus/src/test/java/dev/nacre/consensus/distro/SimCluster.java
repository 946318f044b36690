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
      .leadingEdgeFlush(!Boolean.getBoolean("distro.sim.trailing"))
      .verifyInterval(Duration.ofSeconds(5))
      .retryBackoff(Duration.ofMillis(50), Duration.ofSeconds(1))
      .requestTimeout(Duration.ofMillis(500))
      .snapshotTimeout(Duration.ofMillis(500))
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
  /** On average one fault starts every this many steps: odd seeds are hostile, even ones mild. */
  final int stepsPerFault;
  final Random random;
  final SimNetwork net;
  final List<String> ids = new ArrayList<>();
  final Map<String, Node> nodes = new TreeMap<>();
  final Map<String, DistroRecord> produced = new HashMap<>(); // owner|key|revision
  final ArrayDeque<String> history = new ArrayDeque<>();
  long now;
  long writes;
  long crashes;

  final SimFaults faults = new SimFaults(this);

  SimCluster(int size, long seed) {
    this.stepsPerFault = seed % 2 == 1 ? 100 : 400;
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
  void step(boolean faultsOn, boolean writesOn) {
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
    if (faultsOn && random.nextInt(stepsPerFault) == 0) {
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

  void randomFault() {
    faults.randomFault();
  }

  /** Ends every fault, restarts crashed members, and tells everyone that everyone is UP. */
  void heal() {
    faults.heal();
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
      } else if (e instanceof DistroEffect.ContinueApply) {
        handle(n, n.core.continueApply(now));
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
      DistroSnapshot snap = to.core.beginSnapshot(r.request()).get();
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

  void checkInvariants() {
    SimChecks.checkInvariants(this);
  }

  void assertConverged() {
    SimChecks.assertConverged(this);
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
