package dev.nacre.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.cluster.NemesisSchedule.Event;
import dev.nacre.cluster.NemesisSchedule.Kind;
import dev.nacre.cluster.NemesisSchedule.Params;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The seeded nemesis schedule alone: replayable, and meaningful over many seeds. */
@Timeout(60)
class NemesisScheduleTest {

  @Test
  void theSameSeedGivesTheSameScheduleAndAnotherSeedAnother() {
    Params p = Params.everything(5, Duration.ofSeconds(90));
    NemesisSchedule a = NemesisSchedule.generate(42, p);
    NemesisSchedule b = NemesisSchedule.generate(42, p);
    System.out.println(a);
    assertThat(a).isEqualTo(b);
    assertThat(a.toString()).isEqualTo(b.toString());
    assertThat(a.events()).hasSizeGreaterThan(10);
    assertThat(NemesisSchedule.generate(43, p).events()).isNotEqualTo(a.events());
  }

  @Test
  void everyScheduleOverManySeedsKeepsTheRulesAndEveryKindOccurs() {
    EnumSet<Kind> seen = EnumSet.noneOf(Kind.class);
    int schedules = 0;
    for (int nodes : new int[] {3, 5, 7}) {
      for (Duration d : List.of(Duration.ofSeconds(20), Duration.ofSeconds(75), Duration.ofSeconds(300))) {
        Params p = Params.everything(nodes, d);
        for (long seed = 0; seed < 200; seed++) {
          NemesisSchedule s = NemesisSchedule.generate(seed, p);
          assertThat(s.violations()).as(s::toString).isEmpty();
          List<Event> events = s.events();
          assertThat(events.get(events.size() - 1)).isEqualTo(new Event(p.faultsEnd(), new NemesisSchedule.HealAll()));
          assertThat(events).allSatisfy(e -> assertThat(e.at()).isLessThanOrEqualTo(p.faultsEnd()));
          events.stream().map(e -> kindOf(e.fault())).filter(k -> k != null).forEach(seen::add);
          schedules++;
        }
      }
    }

    assertThat(seen).as("kinds drawn in %d schedules", schedules).isEqualTo(EnumSet.allOf(Kind.class));
  }

  @Test
  void theMixDecidesWhichFaultsOccur() {
    Params p = Params.everything(3, Duration.ofSeconds(120)).withMix(Map.of(Kind.LOSSY, 1, Kind.PAUSE, 3));
    for (long seed = 0; seed < 50; seed++) {
      NemesisSchedule s = NemesisSchedule.generate(seed, p);
      assertThat(s.violations()).isEmpty();
      assertThat(s.events()).allSatisfy(e -> assertThat(kindOf(e.fault())).isIn(Kind.LOSSY, Kind.PAUSE, null));
      assertThat(s.count(NemesisSchedule.Pause.class)).isPositive();
    }
    NemesisSchedule none = NemesisSchedule.generate(1, p.withMix(Map.of()));
    assertThat(none.events()).containsExactly(new Event(p.faultsEnd(), new NemesisSchedule.HealAll()));
  }

  @Test
  void theRuleCheckerCatchesBrokenSchedules() {
    Params p = Params.everything(3, Duration.ofSeconds(20));
    List<Event> twoDown = new ArrayList<>(List.of(
        new Event(Duration.ofSeconds(1), new NemesisSchedule.Kill(0)),
        new Event(Duration.ofSeconds(2), new NemesisSchedule.Isolate(1)),
        new Event(Duration.ofSeconds(3), new NemesisSchedule.Heal())));
    assertThat(new NemesisSchedule(1, p, twoDown).violations())
        .anyMatch(v -> v.startsWith("no majority left"))
        .anyMatch(v -> v.equals("no final heal"));
    twoDown.add(new Event(p.faultsEnd(), new NemesisSchedule.HealAll()));
    assertThat(new NemesisSchedule(1, p, twoDown).violations()).anyMatch(v -> v.startsWith("faults left at the quiet phase"));
    List<Event> wipeInPartition = List.of(
        new Event(Duration.ofSeconds(1), new NemesisSchedule.CutOneWay(1, 2)),
        new Event(Duration.ofSeconds(2), new NemesisSchedule.Wipe(0)),
        new Event(Duration.ofSeconds(3), new NemesisSchedule.Heal()),
        new Event(Duration.ofSeconds(4), new NemesisSchedule.Restart(0, true)),
        new Event(Duration.ofSeconds(5), new NemesisSchedule.Lossy(0.1)),
        new Event(Duration.ofSeconds(9), new NemesisSchedule.Heal()),
        new Event(p.faultsEnd(), new NemesisSchedule.HealAll()));
    assertThat(new NemesisSchedule(1, p, wipeInPartition).violations())
        .containsExactly("a wipe during a network fault: +2.0s Wipe[node=0]",
            "starts while a wiped node settles: +5.0s Lossy[p=0.1]");
  }

  @Test
  void paramsRefuseSchedulesWithoutAMajorityOrAQuietPhase() {
    assertThatThrownBy(() -> Params.everything(2, Duration.ofSeconds(60))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Params(3, Duration.ofSeconds(60), Duration.ofSeconds(1), Map.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Params(3, Duration.ofSeconds(6), Duration.ofSeconds(3), Map.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(Params.everything(5, Duration.ofSeconds(60)).minority()).isEqualTo(2);
    assertThat(Params.everything(4, Duration.ofSeconds(60)).minority()).isEqualTo(1);
  }

  /** The kind each fault class is drawn as (fault classes are records, so the exact class decides). */
  private static final Map<Class<?>, Kind> KINDS = Map.of(
      NemesisSchedule.Partition.class, Kind.PARTITION, NemesisSchedule.Isolate.class, Kind.ISOLATE,
      NemesisSchedule.CutOneWay.class, Kind.ONE_WAY, NemesisSchedule.Lossy.class, Kind.LOSSY,
      NemesisSchedule.Delay.class, Kind.DELAY, NemesisSchedule.Kill.class, Kind.KILL,
      NemesisSchedule.Wipe.class, Kind.WIPE, NemesisSchedule.Pause.class, Kind.PAUSE,
      NemesisSchedule.CutClients.class, Kind.CLIENT_CUT);

  /** The kind of {@code f}, or null for the heals and restarts, which are no kind of their own. */
  private static Kind kindOf(NemesisSchedule.Fault f) {
    return KINDS.get(f.getClass());
  }

}
