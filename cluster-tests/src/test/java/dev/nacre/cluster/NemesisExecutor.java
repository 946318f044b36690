package dev.nacre.cluster;

import dev.nacre.cluster.NemesisSchedule.CutClients;
import dev.nacre.cluster.NemesisSchedule.CutOneWay;
import dev.nacre.cluster.NemesisSchedule.Delay;
import dev.nacre.cluster.NemesisSchedule.Event;
import dev.nacre.cluster.NemesisSchedule.Fault;
import dev.nacre.cluster.NemesisSchedule.Heal;
import dev.nacre.cluster.NemesisSchedule.HealAll;
import dev.nacre.cluster.NemesisSchedule.HealClients;
import dev.nacre.cluster.NemesisSchedule.Isolate;
import dev.nacre.cluster.NemesisSchedule.Kill;
import dev.nacre.cluster.NemesisSchedule.Lossy;
import dev.nacre.cluster.NemesisSchedule.Partition;
import dev.nacre.cluster.NemesisSchedule.Pause;
import dev.nacre.cluster.NemesisSchedule.Restart;
import dev.nacre.cluster.NemesisSchedule.Wipe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Applies a {@link NemesisSchedule} to a {@link Target} in real time: each event at its offset
 * from the start (later if the previous one took long, e.g. a restart). After the restart of a
 * wiped node it waits (bounded) until the node has caught up with the leader's commit index, and
 * shifts the rest of the schedule by that wait, since the next fault could otherwise lose entries
 * that only the wiped disk held (see {@link NemesisSchedule}). Runs on the calling thread.
 */
final class NemesisExecutor {

  /** What the executor can do to a cluster. Every method returns once the action is in effect. */
  interface Target {
    void partition(Set<Integer> side);

    void isolate(int node);

    void cutOneWay(int from, int to);

    void lossy(double p);

    void delay(Duration fixed, Duration jitter);

    /** Ends the network fault. */
    void heal();

    void kill(int node);

    void wipe(int node);

    void restart(int node);

    /** Waits at most {@code bound} until {@code node} has applied what the leader committed; false if it did not. */
    boolean awaitCaughtUp(int node, Duration bound);

    void pause(int node, Duration duration);

    void cutClients(int node);

    void healClients(int node);

    /** Heals every network and client fault. */
    void healAll();
  }

  /** An event and when it was applied (nanoTime), {@code lateMs} after its scheduled time. */
  record Applied(Event event, long atNanos, long lateMs) {}

  private final Duration catchUpBound;
  private final Consumer<String> log;

  /**
   * @param catchUpBound how long to wait for a wiped node to catch up after its restart
   * @param log receives one line per applied event
   */
  NemesisExecutor(Duration catchUpBound, Consumer<String> log) {
    this.catchUpBound = catchUpBound;
    this.log = log;
  }

  /** Runs every event of {@code schedule} on {@code target}; returns what was applied, in order. */
  List<Applied> run(NemesisSchedule schedule, Target target) {
    long start = System.nanoTime();
    long shift = 0;
    List<Applied> applied = new ArrayList<>();
    for (Event e : schedule.events()) {
      long due = start + e.at().toNanos() + shift;
      // Pacing a timed schedule (not synchronisation): wait for the event's time.
      for (long left = due - System.nanoTime(); left > 0; left = due - System.nanoTime()) {
        LockSupport.parkNanos(left);
        if (Thread.interrupted()) {
          throw new IllegalStateException("nemesis interrupted before " + e);
        }
      }
      long now = System.nanoTime();
      long late = (now - due) / 1_000_000;
      apply(e.fault(), target);
      applied.add(new Applied(e, now, late));
      log.accept(String.format(java.util.Locale.ROOT, "nemesis %s%s", e, late > 100 ? " (" + late + " ms late)" : ""));
      if (e.fault() instanceof Restart r && r.wiped()) {
        long waitFrom = System.nanoTime();
        boolean caughtUp = target.awaitCaughtUp(r.node(), catchUpBound);
        long waited = System.nanoTime() - waitFrom;
        shift += waited;
        log.accept(String.format(java.util.Locale.ROOT, "nemesis   wiped node %d %s after %d ms; schedule shifted by it",
            r.node(), caughtUp ? "caught up" : "NOT caught up", waited / 1_000_000));
      }
    }
    return applied;
  }

  private static void apply(Fault f, Target t) {
    if (f instanceof Partition p) {
      t.partition(p.side());
    } else if (f instanceof Isolate i) {
      t.isolate(i.node());
    } else if (f instanceof CutOneWay c) {
      t.cutOneWay(c.from(), c.to());
    } else if (f instanceof Lossy l) {
      t.lossy(l.p());
    } else if (f instanceof Delay d) {
      t.delay(d.fixed(), d.jitter());
    } else if (f instanceof Heal) {
      t.heal();
    } else if (f instanceof Kill k) {
      t.kill(k.node());
    } else if (f instanceof Wipe w) {
      t.wipe(w.node());
    } else if (f instanceof Restart r) {
      t.restart(r.node());
    } else if (f instanceof Pause p) {
      t.pause(p.node(), p.duration());
    } else if (f instanceof CutClients c) {
      t.cutClients(c.node());
    } else if (f instanceof HealClients c) {
      t.healClients(c.node());
    } else if (f instanceof HealAll) {
      t.healAll();
    } else {
      throw new IllegalArgumentException("unknown fault " + f);
    }
  }

  /** The target that is a {@link LocalCluster}, nothing recorded. */
  static Target on(LocalCluster c) {
    return new Target() {
      @Override
      public void partition(Set<Integer> side) {
        c.partition(side);
      }

      @Override
      public void isolate(int node) {
        c.isolate(node);
      }

      @Override
      public void cutOneWay(int from, int to) {
        c.faults().cutOneWay(c.address(from), c.address(to));
      }

      @Override
      public void lossy(double p) {
        c.faults().lossy(p, c.members());
      }

      @Override
      public void delay(Duration fixed, Duration jitter) {
        c.faults().delay(fixed, jitter, c.members());
      }

      @Override
      public void heal() {
        c.faults().heal();
      }

      @Override
      public void kill(int node) {
        c.stopNode(node);
      }

      @Override
      public void wipe(int node) {
        c.wipeNode(node);
      }

      @Override
      public void restart(int node) {
        c.startNode(node);
      }

      @Override
      public boolean awaitCaughtUp(int node, Duration bound) {
        return Polling.poll(bound, () -> {
          int leader = c.leader();
          if (leader < 0 || leader == node) {
            return leader == node ? Optional.of(true) : Optional.<Boolean>empty();
          }
          long target = c.node(leader).raftStatus().commitIndex();
          return c.node(node).raftStatus().appliedIndex() >= target ? Optional.of(true) : Optional.<Boolean>empty();
        }).isPresent();
      }

      @Override
      public void pause(int node, Duration duration) {
        c.pause(node, duration);
      }

      @Override
      public void cutClients(int node) {
        c.isolateFromClients(node);
      }

      @Override
      public void healClients(int node) {
        c.healClients(node);
      }

      @Override
      public void healAll() {
        c.healAll();
      }
    };
  }
}
