package dev.nacre.consensus.distro;

import static dev.nacre.consensus.distro.Effects.bytes;
import static dev.nacre.consensus.distro.Effects.requests;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Verify (anti-entropy) repairs, and the initial load of a starting member. */
@Timeout(10)
class DistroVerifyAndLoadTest {

  @Test
  void verifyRepairsMissingExtraAndStaleRecords() {
    Wire wire = new Wire(DistroConfig.defaults(), "a", "b", "c").startAll();
    wire.write("a", "k1", "v1");
    wire.write("a", "k2", "old");
    wire.advanceTo(300);
    wire.loseNextBatch.add("a>b"); // b acknowledges but loses it, as after a handler crash
    wire.write("a", "k3", "v3");
    wire.write("a", "k2", "new");
    wire.advanceTo(600);
    wire.run("b", wire.core("b").batchReceived(new DistroBatch("a", 99,
        List.of(DistroRecord.live("ghost", "a", 5, bytes("never written"))), Optional.empty()), 600));

    var b = wire.core("b");
    assertThat(b.liveRecords()).containsOnlyKeys("k1", "k2", "ghost");
    assertThat(Effects.text(b.record("k2").orElseThrow())).isEqualTo("old");

    wire.log.clear();
    wire.advanceTo(4990);
    assertThat(wire.log).as("no verify round yet").isEmpty();
    wire.advanceTo(5010);
    assertThat(wire.log).contains("a>b batch 0+digest", "b>a snapshot OWNED")
        .as("c's view matches a's digest").doesNotContain("c>a snapshot OWNED");
    assertThat(b.liveRecords()).isEqualTo(wire.core("a").liveRecords()).containsOnlyKeys("k1", "k2", "k3");
    assertThat(Effects.text(b.record("k2").orElseThrow())).isEqualTo("new");
    wire.assertViewsMatchCores();
  }

  @Test
  void deletionOfARestartedOwnerIsDroppedByVerifyAndNoLongerHidesAnotherOwnersRecord() {
    Wire wire = new Wire(DistroConfig.defaults(), "a", "b", "c").startAll();
    wire.write("b", "k", "b's");
    wire.advanceTo(300);
    wire.cut("c", "b");
    wire.delete("c", "k"); // only a hears of it: c's tombstone outranks b's record there
    wire.advanceTo(600);
    assertThat(wire.core("a").liveRecords()).isEmpty();
    assertThat(wire.core("b").liveRecords()).containsOnlyKeys("k");

    wire.advanceTo(5010); // verify round: a pulls b, but c's newer deletion still wins at a
    assertThat(wire.core("a").liveRecords()).isEmpty();

    wire.heal();
    wire.restart("c"); // c's new run owns nothing: its deletion died with the old run
    assertThat(wire.core("c").isReady()).isTrue();
    // c's first digest shows a the deletion c no longer has; a drops it, sees that b's last
    // digest now differs from its view, and pulls b again at once instead of a round later
    assertThat(wire.core("a").liveRecords()).containsOnlyKeys("k");
    assertThat(wire.core("a").record("k").orElseThrow().owner()).isEqualTo("b");
    wire.assertViewsMatchCores();
  }

  @Test
  void failedRepairPullIsRetriedWhileTheViewStillDiffers() {
    DistroConfig config = DistroConfig.defaults();
    Wire wire = new Wire(config, "a", "b").startAll();
    wire.write("a", "k1", "v1");
    wire.loseNextBatch.add("a>b");
    wire.advanceTo(300);
    wire.cut("b", "a"); // b's pull fails
    wire.advanceTo(5010);
    assertThat(wire.log).contains("b>a snapshot OWNED");
    assertThat(wire.core("b").liveRecords()).isEmpty();
    wire.heal();
    wire.log.clear();
    wire.advanceTo(5200); // retry after the first backoff, well before the next round
    assertThat(wire.log).contains("b>a snapshot OWNED");
    assertThat(wire.core("b").liveRecords()).isEqualTo(wire.core("a").liveRecords());
  }

  /**
   * Issue 10: c restarts while a and b still see it DOWN (their channels to it back off), so they
   * send it nothing, not even digests; c found no peer at start and is ready with nothing. Once c
   * sees them UP it pulls what each owns when no digest of theirs came within a verify interval.
   */
  @Test
  void memberThatMissedALiveOwnersRecordsPullsThemWithinOneVerifyInterval() {
    DistroConfig config = DistroConfig.defaults();
    Wire wire = new Wire(config, "a", "b", "c").startAll();
    wire.write("a", "k1", "a's");
    wire.write("b", "k2", "b's");
    wire.advanceTo(300);
    wire.run("a", wire.core("a").memberDown("c", wire.now));
    wire.run("b", wire.core("b").memberDown("c", wire.now));
    wire.advanceTo(2_000);
    wire.restartAlone("c");
    assertThat(wire.core("c").isReady()).isTrue();
    assertThat(wire.core("c").liveRecords()).isEmpty();

    long up = wire.now;
    wire.run("c", wire.core("c").memberUp("a", up));
    wire.run("c", wire.core("c").memberUp("b", up));
    wire.write("a", "k3", "written while c is DOWN for a"); // not sent to c either
    wire.advanceTo(up + config.verifyInterval().toMillis() + config.flushDelay().toMillis() + 20);
    assertThat(wire.core("c").liveRecords()).containsOnlyKeys("k1", "k2", "k3");
    assertThat(wire.log).contains("c>a snapshot OWNED", "c>b snapshot OWNED");
    wire.assertViewsMatchCores();
  }

  /** A member whose owners send digests as usual does not pull them on its own. */
  @Test
  void ownersThatSendDigestsAreNotPulledForSilence() {
    Wire wire = new Wire(DistroConfig.defaults(), "a", "b", "c").startAll();
    wire.write("a", "k1", "v1");
    wire.advanceTo(30_000);
    assertThat(wire.log).doesNotContain("b>a snapshot OWNED", "c>a snapshot OWNED", "a>b snapshot OWNED");
  }

  /**
   * An owner under a long burst of writes keeps its queue to a peer from emptying, so its digest
   * waits; its batches still show it sees the peer UP, and the peer must not pull its whole set
   * for silence (at a million instances such pulls fed each other for minutes).
   */
  @Test
  void anOwnerWhoseBatchesKeepComingIsNotPulledForSilence() {
    DistroCore b = readyMemberOfTwo();
    List<DistroEffect.RequestSnapshot> asked = new ArrayList<>();
    for (int t = 10; t <= 30_000; t += 10) { // bounded: 30 s of ticks, a batch without digest every 100 ms
      asked.addAll(requests(b.tick(t)));
      if (t % 100 == 0) {
        asked.addAll(requests(b.batchReceived(batchOfA(t), t)));
      }
    }
    assertThat(asked).as("pulls of a busy owner").isEmpty();

    for (int t = 30_010; t <= 45_000; t += 10) { // now a falls silent: it is pulled
      asked.addAll(requests(b.tick(t)));
    }
    assertThat(asked).extracting(DistroEffect.RequestSnapshot::peer).containsExactly("a");
  }

  /**
   * A member whose own thread was held up (a large pull applied) heard nothing meanwhile: the
   * batches its owners sent wait behind its next tick, which must not pull them for silence.
   */
  @Test
  void aMemberHeldUpForLongerThanTwoIntervalsDoesNotPullItsOwnersForSilence() {
    DistroCore b = readyMemberOfTwo();
    List<DistroEffect.RequestSnapshot> asked = new ArrayList<>();
    for (int t = 10; t <= 3_000; t += 10) {
      asked.addAll(requests(b.tick(t)));
    }
    asked.addAll(requests(b.batchReceived(batchOfA(3_000), 3_000)));
    // Held up for 25 s: the next tick comes before the batches that waited behind it.
    asked.addAll(requests(b.tick(28_000)));
    asked.addAll(requests(b.batchReceived(batchOfA(28_000), 28_000)));
    for (int t = 28_010; t <= 35_000; t += 10) {
      asked.addAll(requests(b.tick(t)));
    }
    assertThat(asked).as("pulls after the hold-up").isEmpty();
  }

  /** A pull answered is word from its owner, however long it took to come and to apply. */
  @Test
  void aPullThatTookLongerThanTwoIntervalsIsNotFollowedByAnotherAtOnce() {
    DistroCore b = readyMemberOfTwo();
    List<DistroEffect.RequestSnapshot> asked = new ArrayList<>();
    for (int t = 10; t <= 11_000; t += 10) { // a falls silent: pulled once
      asked.addAll(requests(b.tick(t)));
    }
    assertThat(asked).extracting(DistroEffect.RequestSnapshot::peer).containsExactly("a");
    // The answer takes 20 s to come; b's thread kept ticking meanwhile.
    for (int t = 11_010; t <= 31_000; t += 10) {
      assertThat(requests(b.tick(t))).isEmpty();
    }
    b.snapshotReceived(asked.get(0).requestId(), new DistroSnapshot("a", SnapshotRequest.Scope.OWNED, 0, List.of()),
        31_000);
    for (int t = 31_010; t <= 36_000; t += 10) {
      assertThat(requests(b.tick(t))).as("at %d ms", t).isEmpty();
    }
  }

  /**
   * A pull's answer of hundreds of thousands of records held the thread for 10-30 s at a million
   * instances; it is applied a slice at a time, and what comes between the slices counts.
   */
  @Test
  void aLargePullIsAppliedASliceAtATimeAndWhatComesBetweenIsKept() {
    DistroCore b = readyMemberOfTwo();
    b.batchReceived(new DistroBatch("a", 1, List.of(DistroRecord.live("gone", "a", 5, bytes("x"))),
        Optional.empty()), 100); // deleted by a before it answers: the answer lacks it
    List<DistroEffect.RequestSnapshot> asked = new ArrayList<>();
    for (int t = 110; t <= 11_000 && asked.isEmpty(); t += 10) { // a falls silent: pulled
      asked.addAll(requests(b.tick(t)));
    }
    assertThat(asked).singleElement().extracting(DistroEffect.RequestSnapshot::peer).isEqualTo("a");

    int size = 2 * PullAnswers.SLICE + 10;
    List<DistroRecord> set = java.util.stream.IntStream.range(0, size)
        .mapToObj(i -> DistroRecord.live("k" + i, "a", 10, bytes("v"))).toList();
    var effects = b.snapshotReceived(asked.get(0).requestId(),
        new DistroSnapshot("a", SnapshotRequest.Scope.OWNED, 10, set), 11_000);
    assertThat(Effects.of(effects, DistroEffect.ContinueApply.class)).hasSize(1);
    assertThat(b.liveRecords()).hasSize(PullAnswers.SLICE + 1);

    // Between the slices: a newer change of a key in the set, and a digest that differs (the
    // apply is not done) which must not start another pull.
    var between = b.batchReceived(new DistroBatch("a", 2, List.of(DistroRecord.live("k0", "a", 20, bytes("newer"))),
        Optional.of(new OwnerDigest("a", 1, 1))), 11_010);
    assertThat(requests(between)).isEmpty();
    assertThat(Effects.of(b.continueApply(11_020), DistroEffect.ContinueApply.class)).hasSize(1);
    assertThat(Effects.of(b.continueApply(11_030), DistroEffect.ContinueApply.class)).isEmpty();

    assertThat(b.liveRecords()).hasSize(size).doesNotContainKey("gone");
    assertThat(Effects.text(b.liveRecords().get("k0"))).isEqualTo("newer");
  }

  private static DistroCore readyMemberOfTwo() {
    DistroCore b = new DistroCore("b", List.of("a", "b"), DistroConfig.defaults(), 0);
    var ask = requests(b.start(0)).get(0);
    b.snapshotReceived(ask.requestId(), new DistroSnapshot("a", SnapshotRequest.Scope.ALL, 0, List.of()), 0);
    assertThat(b.isReady()).isTrue();
    return b;
  }

  private static DistroBatch batchOfA(long t) {
    return new DistroBatch("a", t, List.of(DistroRecord.live("k" + t, "a", t, bytes("v"))), Optional.empty());
  }

  @Test
  void singleMemberIsReadyAtOnce() {
    DistroCore a = new DistroCore("a", List.of("a"), DistroConfig.defaults(), 0);
    assertThat(a.start(0)).containsExactly(new DistroEffect.BecameReady(false));
    assertThat(a.isReady()).isTrue();
  }

  @Test
  void memberWhosePeersAreAllDownIsReadyAtOnce() {
    DistroCore a = new DistroCore("a", List.of("a", "b"), DistroConfig.defaults(), 0);
    a.memberDown("b", 0);
    assertThat(a.start(0)).contains(new DistroEffect.BecameReady(false));
  }

  @Test
  void startingMemberLoadsEverythingFromOnePeerBeforeItIsReady() {
    Wire wire = new Wire(DistroConfig.defaults(), "a", "b", "c");
    wire.run("a", wire.core("a").start(0));
    wire.run("b", wire.core("b").start(0));
    wire.write("a", "ka", "1");
    wire.write("b", "kb", "2");
    wire.delete("b", "kb-deleted");
    wire.advanceTo(1000);

    DistroCore c = wire.core("c");
    assertThat(c.isReady()).isFalse();
    wire.log.clear();
    wire.run("c", c.start(wire.now));
    assertThat(wire.log).first().isEqualTo("c>a snapshot ALL");
    assertThat(c.isReady()).isTrue();
    assertThat(c.liveRecords()).containsOnlyKeys("ka", "kb");
    assertThat(c.record("kb-deleted")).as("tombstones come too").isPresent();
    wire.assertViewsMatchCores();
  }

  @Test
  void loadTriesTheNextPeerWhenOneFailsAndGivesUpAfterTheLoadTimeout() {
    DistroConfig config = DistroConfig.builder().requestTimeout(Duration.ofSeconds(1)).snapshotTimeout(Duration.ofSeconds(1))
        .retryBackoff(Duration.ofMillis(100), Duration.ofSeconds(2))
        .initialLoadTimeout(Duration.ofSeconds(10)).build();
    DistroCore b = new DistroCore("b", List.of("a", "b", "c"), config, 0);
    var ask1 = requests(b.start(0)).get(0);
    assertThat(ask1.peer()).as("ring order after b").isEqualTo("c");
    var ask2 = requests(b.snapshotFailed(ask1.requestId(), 10)).get(0);
    assertThat(ask2.peer()).isEqualTo("a");
    assertThat(requests(b.tick(1009))).isEmpty();
    assertThat(requests(b.tick(1010))).as("a timed out, round over, wait").isEmpty();
    assertThat(requests(b.tick(3009))).isEmpty();
    assertThat(requests(b.tick(3010))).extracting(DistroEffect.RequestSnapshot::peer)
        .containsExactly("c");
    assertThat(b.isReady()).isFalse();
    assertThat(b.tick(10_000)).contains(new DistroEffect.BecameReady(false));
    assertThat(b.isReady()).isTrue();
  }

  /** Parts still arriving past the snapshot timeout keep the load going: no ready with a part of it. */
  @Test
  void aLoadWhosePartsKeepComingOutlastsTheSnapshotTimeout() {
    DistroConfig config = DistroConfig.builder().snapshotTimeout(Duration.ofSeconds(1))
        .initialLoadTimeout(Duration.ofSeconds(2)).build();
    DistroCore b = new DistroCore("b", List.of("a", "b", "c"), config, 0);
    var ask = requests(b.start(0)).get(0);
    long now = 0;
    for (int part = 0; part < 10; part++) { // ten parts, 0.9 s apart: 9 s, past both timeouts
      now += 900;
      var effects = b.snapshotPartReceived(ask.requestId(),
          List.of(DistroRecord.live("k" + part, "c", part + 1, bytes("v"))), now);
      assertThat(effects).as("part %d", part).doesNotContain(new DistroEffect.BecameReady(false));
      assertThat(requests(effects)).as("no other peer asked at part %d", part).isEmpty();
      assertThat(b.isReady()).isFalse();
    }
    var last = b.snapshotReceived(ask.requestId(), new DistroSnapshot(ask.peer(), SnapshotRequest.Scope.ALL, 10,
        List.of()), now + 900);
    assertThat(last).contains(new DistroEffect.BecameReady(true));
    assertThat(b.liveRecords()).hasSize(10);
  }

  @Test
  void loadSucceedsFromTheSecondPeer() {
    DistroCore b = new DistroCore("b", List.of("a", "b", "c"), DistroConfig.defaults(), 0);
    var ask1 = requests(b.start(0)).get(0);
    var ask2 = requests(b.snapshotFailed(ask1.requestId(), 5)).get(0);
    var snap = new DistroSnapshot("a", SnapshotRequest.Scope.ALL, 9,
        List.of(DistroRecord.live("k", "c", 9, bytes("v"))));
    var effects = b.snapshotReceived(ask2.requestId(), snap, 6);
    assertThat(effects).contains(new DistroEffect.BecameReady(true));
    assertThat(Effects.applied(effects)).extracting(DistroRecord::key).containsExactly("k");
  }
}
