package dev.nacre.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.cluster.NemesisSchedule.Event;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The executor against a recording target: order, timing, and the wait after a wiped restart. */
@Timeout(30)
class NemesisExecutorTest {

  /** Records each call with the milliseconds since the run started. */
  static final class Recording implements NemesisExecutor.Target {
    final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    final long start = System.nanoTime();
    final Duration catchUp;

    Recording(Duration catchUp) {
      this.catchUp = catchUp;
    }

    private void call(String what) {
      calls.add(what + "@" + (System.nanoTime() - start) / 1_000_000);
    }

    @Override public void partition(Set<Integer> side) { call("partition" + side); }
    @Override public void isolate(int node) { call("isolate " + node); }
    @Override public void cutOneWay(int from, int to) { call("cut " + from + "->" + to); }
    @Override public void lossy(double p) { call("lossy " + p); }
    @Override public void delay(Duration fixed, Duration jitter) { call("delay " + fixed.toMillis()); }
    @Override public void heal() { call("heal"); }
    @Override public void kill(int node) { call("kill " + node); }
    @Override public void wipe(int node) { call("wipe " + node); }
    @Override public void restart(int node) { call("restart " + node); }

    @Override
    public boolean awaitCaughtUp(int node, Duration bound) {
      call("await " + node);
      long until = System.nanoTime() + catchUp.toNanos();
      while (System.nanoTime() < until) {
        java.util.concurrent.locks.LockSupport.parkNanos(until - System.nanoTime());
      }
      return true;
    }

    @Override public void pause(int node, Duration d) { call("pause " + node + " " + d.toMillis()); }
    @Override public void cutClients(int node) { call("cutClients " + node); }
    @Override public void healClients(int node) { call("healClients " + node); }
    @Override public void healAll() { call("healAll"); }

    List<String> names() {
      return calls.stream().map(c -> c.substring(0, c.indexOf('@'))).toList();
    }

    long at(int i) {
      String c = calls.get(i);
      return Long.parseLong(c.substring(c.indexOf('@') + 1));
    }
  }

  @Test
  void eventsRunInOrderAtTheirTimesAndAWipedNodeIsAwaitedBeforeTheRest() {
    NemesisSchedule s = new NemesisSchedule(7, NemesisSchedule.Params.everything(3, Duration.ofSeconds(20)), List.of(
        new Event(Duration.ofMillis(0), new NemesisSchedule.Partition(Set.of(2))),
        new Event(Duration.ofMillis(150), new NemesisSchedule.Heal()),
        new Event(Duration.ofMillis(200), new NemesisSchedule.Wipe(1)),
        new Event(Duration.ofMillis(250), new NemesisSchedule.Restart(1, true)),
        new Event(Duration.ofMillis(300), new NemesisSchedule.Pause(0, Duration.ofMillis(100))),
        new Event(Duration.ofMillis(350), new NemesisSchedule.HealAll())));
    Recording target = new Recording(Duration.ofMillis(400));
    List<String> log = new ArrayList<>();
    List<NemesisExecutor.Applied> applied = new NemesisExecutor(Duration.ofSeconds(5), log::add).run(s, target);

    assertThat(target.names()).containsExactly("partition[2]", "heal", "wipe 1", "restart 1", "await 1", "pause 0 100", "healAll");
    assertThat(applied).extracting(NemesisExecutor.Applied::event).containsExactlyElementsOf(s.events());
    assertThat(target.at(1)).isGreaterThanOrEqualTo(150);
    assertThat(target.at(3)).isGreaterThanOrEqualTo(250);
    // The pause was due at +300 ms; the 400 ms catch-up wait shifts it (and what follows) to +650 ms or later.
    assertThat(target.at(5)).isGreaterThanOrEqualTo(650);
    // Each event waits for its own shifted time (due at +350, so +750 or later), not for a gap
    // after the one before: a late event does not delay the next.
    assertThat(target.at(6)).isGreaterThanOrEqualTo(700);
    assertThat(log).hasSize(7).anyMatch(l -> l.contains("wiped node 1 caught up"));
  }
}
