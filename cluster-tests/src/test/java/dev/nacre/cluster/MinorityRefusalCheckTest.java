package dev.nacre.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.cluster.check.History;
import dev.nacre.cluster.check.InstanceKey;
import dev.nacre.cluster.check.Mode;
import dev.nacre.cluster.check.Op;
import dev.nacre.cluster.check.OpKind;
import dev.nacre.cluster.check.Outcome;
import dev.nacre.cluster.check.Verdict;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The minority-refusal check on hand-written histories (times in ms; the fault lasts 1000..9000). */
@Timeout(10)
class MinorityRefusalCheckTest {
  private static final Set<String> MINORITY = Set.of("m");
  private static final Duration BOUND = Duration.ofMillis(4_500);

  private static Op write(long id, String node, long invokeMs, long completeMs, Outcome outcome) {
    return new Op(id, (int) id, node, OpKind.REGISTER, Mode.CP, InstanceKey.of("s", "127.0.0.1:80"),
        Optional.of("v" + id), Map.of(), invokeMs * 1_000_000, completeMs * 1_000_000, outcome, "");
  }

  private static Verdict.Status check(Op... ops) {
    return MinorityRefusalCheck.check(new History(List.of(ops)), MINORITY, 1_000_000_000L, 9_000_000_000L, BOUND)
        .verdict().status();
  }

  @Test
  void refusalsInTimePass() {
    assertThat(check(write(1, "m", 2000, 5000, Outcome.UNKNOWN), write(2, "m", 5000, 5100, Outcome.FAIL),
        write(3, "x", 2000, 2100, Outcome.OK))).isEqualTo(Verdict.Status.PASS);
  }

  @Test
  void anAcknowledgementByTheMinorityFails() {
    assertThat(check(write(1, "m", 2000, 5000, Outcome.UNKNOWN), write(2, "m", 5000, 5100, Outcome.OK)))
        .isEqualTo(Verdict.Status.FAIL);
  }

  @Test
  void aRefusalSlowerThanTheBoundFails() {
    assertThat(check(write(1, "m", 2000, 7000, Outcome.UNKNOWN))).isEqualTo(Verdict.Status.FAIL);
  }

  @Test
  void writesBeforeTheCutOrRunningAtTheHealMayStillSucceed() {
    assertThat(check(write(1, "m", 500, 1500, Outcome.OK), write(2, "m", 8000, 9500, Outcome.OK),
        write(3, "m", 3000, 4000, Outcome.UNKNOWN))).isEqualTo(Verdict.Status.PASS);
  }

  @Test
  void noWriteToTheMinorityIsInconclusive() {
    assertThat(check(write(1, "x", 2000, 2100, Outcome.OK))).isEqualTo(Verdict.Status.INCONCLUSIVE);
  }
}
