package dev.nacre.cluster;

import dev.nacre.cluster.check.InstanceKey;
import dev.nacre.cluster.check.Op;
import dev.nacre.cluster.check.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

/**
 * Concurrent client workers (one thread per logical process) that run recorded operations against
 * chosen nodes until stopped, and in any case within a count and a time bound. Process {@code k} of
 * a workload sends every operation to {@code nodes[k % nodes.size()]}. Each process draws its
 * operations from its own {@link Random}, seeded from the scenario seed and its process id, so the
 * operation sequence of a seed is the same on every run (what the cluster answers is not).
 */
final class Workload implements AutoCloseable {

  /** What one worker knows when it picks its next operation. */
  record Context(WorkloadClient client, int process, int node, Random random, List<InstanceKey> keys,
      AtomicInteger counter) {
    InstanceKey anyKey() {
      return keys.get(random.nextInt(keys.size()));
    }

    /** A value no other operation of the scenario writes: {@code p<process>-<n>}. */
    String nextValue() {
      return "p" + process + "-" + counter.incrementAndGet();
    }
  }

  /** What one process does next; returns the recorded operation. */
  @FunctionalInterface
  interface Step {
    Op run(Context ctx);
  }

  /**
   * @param name for thread names and reports
   * @param processes worker threads
   * @param nodes the node indexes the workers are spread over
   * @param keys the instances the workers touch
   * @param step the operation mix
   * @param pace the pause after an acknowledged operation (a load shape, not synchronisation)
   * @param failPace the pause after a failed or unknown one, so that a dead node is not hammered
   * @param maxOpsPerProcess count bound
   * @param maxDuration time bound
   */
  record Spec(String name, int processes, List<Integer> nodes, List<InstanceKey> keys, Step step, Duration pace,
      Duration failPace, int maxOpsPerProcess, Duration maxDuration) {
    Spec {
      if (processes < 1 || nodes.isEmpty() || keys.isEmpty()) {
        throw new IllegalArgumentException("a workload needs processes, nodes and keys: " + name);
      }
      nodes = List.copyOf(nodes);
      keys = List.copyOf(keys);
    }

    /** CP defaults: 30% linearizable reads, 20 ms between operations, at most 2000 ops or 120 s per process. */
    static Spec cp(String name, int processes, List<Integer> nodes, List<InstanceKey> keys) {
      return new Spec(name, processes, nodes, keys, cpMix(0.3), Duration.ofMillis(20), Duration.ofMillis(100),
          2000, Duration.ofSeconds(120));
    }

    /** AP defaults: register/beat/deregister with 20% local reads, same bounds as {@link #cp}. */
    static Spec ap(String name, int processes, List<Integer> nodes, List<InstanceKey> keys) {
      return new Spec(name, processes, nodes, keys, apMix(0.2), Duration.ofMillis(20), Duration.ofMillis(100),
          2000, Duration.ofSeconds(120));
    }

    Spec withStep(Step s) {
      return new Spec(name, processes, nodes, keys, s, pace, failPace, maxOpsPerProcess, maxDuration);
    }

    Spec withPace(Duration p) {
      return new Spec(name, processes, nodes, keys, step, p, failPace, maxOpsPerProcess, maxDuration);
    }

    Spec withBounds(int maxOps, Duration maxTime) {
      return new Spec(name, processes, nodes, keys, step, pace, failPace, maxOps, maxTime);
    }

    List<String> services() {
      return keys.stream().map(InstanceKey::service).distinct().sorted().toList();
    }
  }

  /**
   * CP operations: a linearizable read of a random key's service with probability {@code reads},
   * else a register (45%), an update (20%) or a deregister (35%) of a random key.
   */
  static Step cpMix(double reads) {
    return ctx -> {
      InstanceKey key = ctx.anyKey();
      if (ctx.random().nextDouble() < reads) {
        return ctx.client().cpRead(ctx.process(), ctx.node(), key.service());
      }
      double w = ctx.random().nextDouble();
      if (w < 0.45) {
        return ctx.client().cpRegister(ctx.process(), ctx.node(), key, ctx.nextValue());
      }
      if (w < 0.65) {
        return ctx.client().cpUpdate(ctx.process(), ctx.node(), key, ctx.nextValue());
      }
      return ctx.client().cpDeregister(ctx.process(), ctx.node(), key);
    };
  }

  /** CP registers only (each with a fresh value): every acknowledged one must survive. */
  static Step cpRegisters() {
    return ctx -> ctx.client().cpRegister(ctx.process(), ctx.node(), ctx.anyKey(), ctx.nextValue());
  }

  /**
   * AP operations: a local read of a random key's service with probability {@code reads}, else a
   * register (40%), a full beat (45%) or a deregister (15%) of a random key.
   */
  static Step apMix(double reads) {
    return ctx -> {
      InstanceKey key = ctx.anyKey();
      if (ctx.random().nextDouble() < reads) {
        return ctx.client().apRead(ctx.process(), ctx.node(), key.service());
      }
      double w = ctx.random().nextDouble();
      if (w < 0.40) {
        return ctx.client().apRegister(ctx.process(), ctx.node(), key, ctx.nextValue());
      }
      if (w < 0.85) {
        return ctx.client().apBeat(ctx.process(), ctx.node(), key, ctx.nextValue());
      }
      return ctx.client().apDeregister(ctx.process(), ctx.node(), key);
    };
  }

  private final Spec spec;
  private final CountDownLatch stop = new CountDownLatch(1);
  private final List<Thread> threads = new ArrayList<>();
  private final AtomicInteger ops = new AtomicInteger();
  private final AtomicInteger acknowledged = new AtomicInteger();

  private Workload(Spec spec) {
    this.spec = spec;
  }

  /** Starts the workers; process ids come from {@code processIds}, seeds from {@code seed}. */
  static Workload start(Spec spec, WorkloadClient client, long seed, IntSupplier processIds) {
    Workload w = new Workload(spec);
    for (int k = 0; k < spec.processes(); k++) {
      int process = processIds.getAsInt();
      int node = spec.nodes().get(k % spec.nodes().size());
      Random random = new Random(seed * 31 + process);
      Thread t = new Thread(() -> w.loop(client, process, node, random), "workload-" + spec.name() + "-p" + process);
      t.setDaemon(true);
      w.threads.add(t);
    }
    w.threads.forEach(Thread::start);
    return w;
  }

  private void loop(WorkloadClient client, int process, int node, Random random) {
    long deadline = System.nanoTime() + spec.maxDuration().toNanos();
    Context ctx = new Context(client, process, node, random, spec.keys(), new AtomicInteger());
    try {
      for (int n = 0; n < spec.maxOpsPerProcess() && System.nanoTime() < deadline && stop.getCount() > 0; n++) {
        Op op = spec.step().run(ctx);
        ops.incrementAndGet();
        boolean ok = op.outcome() == Outcome.OK;
        if (ok) {
          acknowledged.incrementAndGet();
        }
        // Pacing the load (and not hammering a dead node); wakes at once when stopped.
        if (stop.await((ok ? spec.pace() : spec.failPace()).toMillis(), TimeUnit.MILLISECONDS)) {
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Operations issued so far. */
  int ops() {
    return ops.get();
  }

  /** Operations answered OK so far. */
  int acknowledged() {
    return acknowledged.get();
  }

  Spec spec() {
    return spec;
  }

  /** Signals the workers and waits for each one's operation in flight (bounded by the client timeout). */
  void stop() {
    stop.countDown();
    long deadline = System.nanoTime() + WorkloadClient.REQUEST_TIMEOUT.plusSeconds(5).toNanos();
    for (Thread t : threads) {
      try {
        t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (t.isAlive()) {
        throw new IllegalStateException(t.getName() + " did not stop within the client timeout");
      }
    }
  }

  @Override
  public void close() {
    stop();
  }
}
