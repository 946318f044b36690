package dev.nacre.consensus.distro;

import static dev.nacre.consensus.distro.Effects.applied;
import static dev.nacre.consensus.distro.Effects.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What a core does with records from peers, and the revisions it gives local writes. */
@Timeout(10)
class DistroReceiveTest {
  static final List<String> MEMBERS = List.of("a", "b", "c");

  static DistroBatch batch(String sender, DistroRecord... records) {
    return new DistroBatch(sender, 1, List.of(records), Optional.empty());
  }

  static DistroCore core(String self) {
    DistroCore core = new DistroCore(self, MEMBERS, DistroConfig.builder()
        .tombstoneRetention(Duration.ofSeconds(10)).build(), 0);
    core.start(0);
    return core;
  }

  @Test
  void appliesOnlyRecordsNewerThanWhatIsHeld() {
    DistroCore b = core("b");
    var first = b.batchReceived(batch("a", DistroRecord.live("k", "a", 10, bytes("v10"))), 1);
    assertThat(applied(first)).extracting(DistroRecord::revision).containsExactly(10L);

    assertThat(applied(b.batchReceived(batch("a", DistroRecord.live("k", "a", 5, bytes("v5"))), 2)))
        .as("stale revision").isEmpty();
    assertThat(applied(b.batchReceived(batch("a", DistroRecord.live("k", "a", 10, bytes("v10"))), 3)))
        .as("same revision again").isEmpty();
    assertThat(b.record("k").orElseThrow().revision()).isEqualTo(10);

    assertThat(applied(b.batchReceived(batch("a", DistroRecord.live("k", "a", 11, bytes("v11"))), 4)))
        .extracting(Effects::text).containsExactly("v11");
  }

  @Test
  void tombstoneDeletesAndKeepsOlderCopiesOutUntilItsRetentionEnds() {
    DistroCore b = core("b");
    b.batchReceived(batch("a", DistroRecord.live("k", "a", 10, bytes("v"))), 0);
    var deleted = applied(b.batchReceived(batch("a", DistroRecord.tombstone("k", "a", 11)), 100));
    assertThat(deleted).singleElement().satisfies(r -> assertThat(r.tombstone()).isTrue());
    assertThat(b.liveRecords()).isEmpty();

    assertThat(applied(b.batchReceived(batch("a", DistroRecord.live("k", "a", 10, bytes("v"))), 200)))
        .as("delayed older copy").isEmpty();
    assertThat(b.liveRecords()).isEmpty();

    b.tick(10_099);
    assertThat(b.record("k")).as("tombstone still remembered").isPresent();
    b.tick(10_100);
    assertThat(b.record("k")).as("tombstone forgotten after retention").isEmpty();
  }

  @Test
  void tombstoneOfAnUnknownKeyIsRememberedWithoutTellingTheHandler() {
    DistroCore b = core("b");
    assertThat(applied(b.batchReceived(batch("a", DistroRecord.tombstone("k", "a", 3)), 0))).isEmpty();
    assertThat(b.record("k")).hasValueSatisfying(r -> assertThat(r.tombstone()).isTrue());
    assertThat(applied(b.batchReceived(batch("a", DistroRecord.live("k", "a", 2, bytes("v"))), 1)))
        .isEmpty();
  }

  @Test
  void ignoresRecordsThatTheSenderDoesNotOwn() {
    DistroCore b = core("b");
    assertThat(applied(b.batchReceived(batch("a", DistroRecord.live("k", "c", 10, bytes("v"))), 0)))
        .isEmpty();
    assertThat(b.liveRecords()).isEmpty();
  }

  @Test
  void aNewOwnersRecordReplacesTheOldOwners() {
    DistroCore b = core("b");
    b.batchReceived(batch("a", DistroRecord.live("k", "a", 10, bytes("from-a"))), 0);
    var moved = applied(b.batchReceived(batch("c", DistroRecord.live("k", "c", 12, bytes("from-c"))), 1));
    assertThat(moved).singleElement().satisfies(r -> assertThat(r.owner()).isEqualTo("c"));
    assertThat(b.digestOf("a").count()).isZero();
    assertThat(b.digestOf("c").count()).isEqualTo(1);
  }

  @Test
  void localWriteOutranksEveryRecordOfTheKeyAndReownsIt() {
    DistroCore b = core("b");
    long far = 99_000_000_000L;
    b.batchReceived(batch("a", DistroRecord.live("k", "a", far, bytes("from-a"))), 0);
    b.localChange("k", bytes("from-b"), 5);
    DistroRecord held = b.record("k").orElseThrow();
    assertThat(held.owner()).isEqualTo("b");
    assertThat(held.revision()).isGreaterThan(far);
    b.localChange("other", bytes("x"), 6);
    assertThat(b.record("other").orElseThrow().revision()).as("increasing per member")
        .isGreaterThan(held.revision());
  }

  @Test
  void restartedMembersWritesOutrankItsEarlierRun() {
    DistroCore first = core("a");
    first.localChange("k", bytes("old"), 5_000);
    first.localChange("k", bytes("old2"), 5_000);
    DistroRecord old = first.record("k").orElseThrow();

    DistroCore restarted = new DistroCore("a", MEMBERS, DistroConfig.defaults(), 6_000);
    restarted.localChange("k", bytes("new"), 6_000);
    assertThat(restarted.record("k").orElseThrow().isNewerThan(old)).isTrue();
  }

  @Test
  void recordsOfAnEarlierRunAreNotTakenBackAtLoadButRaiseTheRevisionCounter() {
    DistroCore a = new DistroCore("a", MEMBERS, DistroConfig.defaults(), 0);
    long loadId = Effects.requests(a.start(0)).get(0).requestId();
    DistroSnapshot snap = new DistroSnapshot("b", SnapshotRequest.Scope.ALL, 0, List.of(
        DistroRecord.live("k", "a", 77_000_000, bytes("from-earlier-run")),
        DistroRecord.live("kb", "b", 5, bytes("b's"))));
    var effects = a.snapshotReceived(loadId, snap, 1);
    assertThat(Effects.applied(effects)).extracting(DistroRecord::key).containsExactly("kb");
    assertThat(a.record("k")).isEmpty();
    assertThat(a.lastIssuedRevision()).isEqualTo(77_000_000);
    a.localChange("k2", bytes("v"), 2);
    assertThat(a.record("k2").orElseThrow().revision()).isEqualTo(77_000_001);
  }
}
