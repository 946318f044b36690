package dev.nacre.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.cluster.check.History;
import dev.nacre.cluster.check.InstanceKey;
import dev.nacre.cluster.check.Mode;
import dev.nacre.cluster.check.Op;
import dev.nacre.cluster.check.OpKind;
import dev.nacre.cluster.check.Outcome;
import dev.nacre.cluster.check.Verdict;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The monotonic-reads check on known-good and known-bad reads. */
@Timeout(10)
class ConfigChecksTest {
  private static final InstanceKey KEY = ConfigWorkloadClient.keys("k", 1).get(0);
  private static final History NO_REMOVES = new History(List.of());

  private static ConfigWorkloadClient.Served read(String node, int epoch, long revision, long from, long to) {
    return new ConfigWorkloadClient.Served(node, epoch, KEY, revision, revision == 0 ? null : "r" + revision, from, to);
  }

  private static Verdict.Status status(History h, ConfigWorkloadClient.Served... reads) {
    return ConfigChecks.monotonic(h, List.of(reads)).verdict().status();
  }

  @Test
  void anOlderRevisionAfterANewerOneOnTheSameMemberFails() {
    assertThat(status(NO_REMOVES, read("a", 0, 5, 0, 10), read("a", 0, 3, 20, 30))).isEqualTo(Verdict.Status.FAIL);
  }

  @Test
  void overlappingReadsOtherMembersAndALostDiskMayDiffer() {
    assertThat(status(NO_REMOVES, read("a", 0, 5, 0, 30), read("a", 0, 3, 10, 20))).isEqualTo(Verdict.Status.PASS);
    assertThat(status(NO_REMOVES, read("a", 0, 5, 0, 10), read("b", 0, 3, 20, 30))).isEqualTo(Verdict.Status.PASS);
    assertThat(status(NO_REMOVES, read("a", 0, 5, 0, 10), read("a", 1, 3, 20, 30))).isEqualTo(Verdict.Status.PASS);
  }

  @Test
  void absentAfterPresentPassesOnlyWhenTheKeyWasRemoved() {
    Op remove = new Op(1, 0, "a", OpKind.DEREGISTER, Mode.CP, KEY, Optional.empty(), Map.of(), 11, 12, Outcome.OK, "");
    assertThat(status(NO_REMOVES, read("a", 0, 5, 0, 10), read("a", 0, 0, 20, 30))).isEqualTo(Verdict.Status.FAIL);
    assertThat(status(new History(List.of(remove)), read("a", 0, 5, 0, 10), read("a", 0, 0, 20, 30)))
        .isEqualTo(Verdict.Status.PASS);
  }
}
