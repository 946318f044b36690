package dev.nacre.consensus.distro;

import static dev.nacre.consensus.distro.Effects.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Records of a member that went DOWN: kept for the grace period, then removed unless re-owned. */
@Timeout(10)
class DistroOwnerLossTest {
  static final DistroConfig CONFIG = DistroConfig.builder()
      .ownerGracePeriod(Duration.ofSeconds(2)).build();

  Wire wire;

  void setUp() {
    wire = new Wire(CONFIG, "a", "b", "c").startAll();
    wire.write("a", "k1", "v");
    wire.write("a", "k2", "v");
    wire.write("b", "kb", "v");
    wire.advanceTo(300);
    assertThat(wire.core("c").liveRecords()).containsOnlyKeys("k1", "k2", "kb");
  }

  void down(String member, String... observers) {
    for (String o : observers) {
      wire.run(o, wire.core(o).memberDown(member, wire.now));
    }
  }

  void up(String member, String... observers) {
    for (String o : observers) {
      wire.run(o, wire.core(o).memberUp(member, wire.now));
    }
  }

  @Test
  void downOwnersRecordsStayForTheGracePeriodThenGoUnlessReowned() {
    setUp();
    wire.cut("a", "b");
    wire.cut("a", "c");
    down("a", "b", "c");
    long downAt = wire.now;
    wire.write("b", "k2", "taken over by b");
    wire.advanceTo(downAt + 1990);
    assertThat(wire.core("c").liveRecords()).containsOnlyKeys("k1", "k2", "kb");

    wire.advanceTo(downAt + 2000);
    assertThat(wire.core("c").liveRecords()).containsOnlyKeys("k2", "kb");
    assertThat(wire.core("c").record("k2").orElseThrow().owner()).isEqualTo("b");
    assertThat(wire.core("b").liveRecords()).containsOnlyKeys("k2", "kb");
    wire.assertViewsMatchCores();
  }

  @Test
  void ownerBackWithinTheGracePeriodKeepsItsRecords() {
    setUp();
    down("a", "b", "c");
    wire.advanceTo(wire.now + 1500);
    up("a", "b", "c");
    wire.advanceTo(wire.now + 3000);
    assertThat(wire.core("c").liveRecords()).containsOnlyKeys("k1", "k2", "kb");
  }

  @Test
  void recordsOfAnExpiredOwnerAreRefusedUntilItIsUpAgainThenVerifyRestoresThem() {
    setUp();
    down("a", "c");
    wire.advanceTo(wire.now + 2000);
    assertThat(wire.core("c").liveRecords()).containsOnlyKeys("kb");

    // b has not removed them yet and c hears of them again: refused
    wire.run("c", wire.core("c").batchReceived(new DistroBatch("a", 50,
        List.of(DistroRecord.live("k3", "a", 1, bytes("late"))), Optional.empty()), wire.now));
    assertThat(wire.core("c").liveRecords()).containsOnlyKeys("kb");

    up("a", "c"); // it was only c's view: a kept running; its next digest makes c pull
    wire.advanceTo(wire.now + 5000);
    assertThat(wire.core("c").liveRecords()).containsOnlyKeys("k1", "k2", "kb");
    wire.assertViewsMatchCores();
  }
}
