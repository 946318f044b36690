package dev.nacre.consensus.distro;

import static dev.nacre.consensus.distro.Effects.batchesTo;
import static dev.nacre.consensus.distro.Effects.bytes;
import static dev.nacre.consensus.distro.Effects.requests;
import static dev.nacre.consensus.distro.Effects.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The outbound pipeline of one core: merging, flush triggers, one in flight, retries, caps. Timing
 * tests run with the trailing flush only (Nacos' behaviour); {@link DistroLeadingEdgeTest} covers
 * the leading edge.
 */
@Timeout(10)
class DistroPipelineTest {
  static final List<String> MEMBERS = List.of("a", "b", "c");
  static final DistroConfig TRAILING = DistroConfig.builder().leadingEdgeFlush(false).build();

  /** Core "a", loaded (from an empty "b") and with its first digest batches acknowledged. */
  static DistroCore readyCore(DistroConfig config) {
    DistroCore a = new DistroCore("a", MEMBERS, config, 0);
    var ask = requests(a.start(0)).get(0);
    assertThat(ask.peer()).isEqualTo("b");
    var effects = a.snapshotReceived(ask.requestId(),
        new DistroSnapshot("b", SnapshotRequest.Scope.ALL, 0, List.of()), 0);
    assertThat(a.isReady()).isTrue();
    for (var send : Effects.batches(effects)) {
      assertThat(send.batch().records()).isEmpty();
      assertThat(send.batch().digest()).as("first batch after start verifies").isPresent();
      a.batchAcked(send.peer(), send.batch().sequence(), 0);
    }
    return a;
  }

  @Test
  void laterChangeOfAKeyReplacesThePendingOne() {
    DistroCore a = readyCore(TRAILING);
    a.localChange("k1", bytes("v1"), 1000);
    a.localChange("k2", bytes("x"), 1010);
    a.localChange("k1", bytes("v2"), 1020);
    a.localDelete("k2", 1030);

    var sent = batchesTo("b", a.tick(1200));
    assertThat(sent).hasSize(1);
    List<DistroRecord> records = sent.get(0).batch().records();
    assertThat(records).extracting(DistroRecord::key).containsExactly("k1", "k2");
    assertThat(text(records.get(0))).isEqualTo("v2");
    assertThat(records.get(1).tombstone()).isTrue();
  }

  @Test
  void flushesFlushDelayAfterTheFirstPendingChangeAndNotEarlier() {
    DistroCore a = readyCore(TRAILING);
    assertThat(batchesTo("b", a.localChange("k1", bytes("v"), 1000))).isEmpty();
    assertThat(batchesTo("b", a.localChange("k2", bytes("v"), 1150))).isEmpty();
    assertThat(batchesTo("b", a.tick(1199))).as("199 ms after the first change").isEmpty();
    var sent = a.tick(1200);
    assertThat(batchesTo("b", sent)).hasSize(1);
    assertThat(batchesTo("c", sent)).hasSize(1);
    assertThat(batchesTo("b", sent).get(0).batch().records()).hasSize(2);
  }

  @Test
  void flushesAtOnceWhenMaxBatchSizeKeysArePending() {
    DistroCore a = readyCore(TRAILING);
    for (int i = 0; i < 999; i++) {
      assertThat(batchesTo("b", a.localChange("k" + i, bytes("v"), 1000))).isEmpty();
    }
    var sent = batchesTo("b", a.localChange("k999", bytes("v"), 1000));
    assertThat(sent).hasSize(1);
    assertThat(sent.get(0).batch().records()).hasSize(1000);
    assertThat(a.pipelineTo("b").pendingCount()).isZero();
  }

  @Test
  void keepsOneBatchInFlightPerPeer() {
    DistroCore a = readyCore(TRAILING);
    a.localChange("k1", bytes("v"), 1000);
    var first = batchesTo("b", a.tick(1200)).get(0);
    a.localChange("k2", bytes("v"), 1300);
    assertThat(batchesTo("b", a.tick(1600))).as("first batch not answered yet").isEmpty();
    assertThat(a.pipelineTo("b").pendingCount()).isEqualTo(1);

    var next = batchesTo("b", a.batchAcked("b", first.batch().sequence(), 1610));
    assertThat(next).as("overdue change leaves on the ack").hasSize(1);
    assertThat(next.get(0).batch().records()).extracting(DistroRecord::key).containsExactly("k2");
  }

  @Test
  void retriesFailedBatchWithExponentialBackoffMergedWithNewerChanges() {
    DistroConfig config = TRAILING.toBuilder()
        .retryBackoff(Duration.ofMillis(100), Duration.ofMillis(400)).build();
    DistroCore a = readyCore(config);
    a.localChange("k1", bytes("old"), 1000);
    a.localChange("k2", bytes("v"), 1000);
    var batch = batchesTo("b", a.tick(1200)).get(0);
    a.localChange("k1", bytes("new"), 1250);

    long failedAt = 1300;
    a.batchFailed("b", batch.batch().sequence(), failedAt);
    long[] expectedDelays = {100, 200, 400, 400};
    for (long delay : expectedDelays) {
      assertThat(batchesTo("b", a.tick(failedAt + delay - 1))).as("before %d ms", delay).isEmpty();
      var retry = batchesTo("b", a.tick(failedAt + delay));
      assertThat(retry).as("retry after %d ms", delay).hasSize(1);
      List<DistroRecord> records = retry.get(0).batch().records();
      assertThat(records).extracting(DistroRecord::key).containsExactlyInAnyOrder("k1", "k2");
      assertThat(records.stream().filter(r -> r.key().equals("k1")).map(Effects::text))
          .containsExactly("new");
      failedAt += delay;
      a.batchFailed("b", retry.get(0).batch().sequence(), failedAt);
    }
    var last = batchesTo("b", a.tick(failedAt + 400)).get(0);
    a.batchAcked("b", last.batch().sequence(), failedAt + 401);
    a.localChange("k3", bytes("v"), failedAt + 500);
    assertThat(batchesTo("b", a.tick(failedAt + 700))).as("backoff reset by the ack").hasSize(1);
  }

  @Test
  void unansweredBatchTimesOutAndIsRetried() {
    DistroCore a = readyCore(TRAILING); // 3 s timeout, 100 ms first backoff
    a.localChange("k1", bytes("v"), 1000);
    var first = batchesTo("b", a.tick(1200)).get(0);
    assertThat(batchesTo("b", a.tick(4199))).isEmpty();
    assertThat(batchesTo("b", a.tick(4200))).as("timed out, now backing off").isEmpty();
    var retry = batchesTo("b", a.tick(4300));
    assertThat(retry).hasSize(1);
    assertThat(retry.get(0).batch().sequence()).isGreaterThan(first.batch().sequence());
    a.batchAcked("b", first.batch().sequence(), 4301); // late answer to the old batch: ignored
    assertThat(a.pipelineTo("b").hasInFlight()).isTrue();
  }

  @Test
  void queueOverTheCapIsDroppedAndThePeerResyncedThroughVerify() {
    DistroConfig config = DistroConfig.builder().maxBatchSize(2).maxPendingKeysPerPeer(5)
        .retryBackoff(Duration.ofMillis(100), Duration.ofMillis(100)).build();
    Wire wire = new Wire(config, "a", "b", "c").startAll();
    wire.cut("a", "b");
    for (int i = 0; i < 40; i++) {
      wire.write("a", "k" + i, "v" + i);
      wire.advanceTo(wire.now + 20);
      assertThat(wire.core("a").pipelineTo("b").pendingCount()).isLessThanOrEqualTo(5);
    }
    assertThat(wire.core("a").pipelineTo("b").resyncCount()).isPositive();
    assertThat(wire.core("b").liveRecords()).hasSizeLessThan(40);

    wire.heal();
    wire.log.clear();
    wire.advanceTo(wire.now + 300); // next retry carries the digest: b sees the gap and pulls
    assertThat(wire.log).contains("b>a snapshot OWNED");
    assertThat(wire.core("b").liveRecords()).isEqualTo(wire.core("a").liveRecords());
    assertThat(wire.core("c").liveRecords()).isEqualTo(wire.core("a").liveRecords());
    wire.assertViewsMatchCores();
  }

  @Test
  void peerMarkedDownLosesItsQueueAndIsResyncedWhenBackUp() {
    Wire wire = new Wire(DistroConfig.defaults(), "a", "b", "c").startAll();
    wire.write("a", "k0", "v0");
    wire.advanceTo(300);
    wire.run("a", wire.core("a").memberDown("b", wire.now));
    wire.cut("a", "b");
    for (int i = 1; i <= 10; i++) {
      wire.write("a", "k" + i, "v");
    }
    wire.delete("a", "k0");
    assertThat(wire.core("a").pipelineTo("b").pendingCount()).as("nothing queued for b").isZero();
    wire.advanceTo(1000);
    assertThat(wire.core("b").liveRecords()).containsOnlyKeys("k0");

    wire.heal();
    wire.log.clear();
    wire.run("a", wire.core("a").memberUp("b", wire.now));
    assertThat(wire.log).as("digest at once, then b pulls a's records")
        .containsSubsequence("a>b batch 0+digest", "b>a snapshot OWNED");
    assertThat(wire.core("b").liveRecords()).isEqualTo(wire.core("a").liveRecords()).hasSize(10);
    wire.assertViewsMatchCores();
  }

  @Test
  void aPeerThatAnswersAgainGetsWhatFailedMeanwhileAtOnceWithADigest() {
    Wire wire = new Wire(DistroConfig.defaults(), "a", "b", "c").startAll(); // retries 100 ms doubling to 3 s
    wire.cut("a", "b");
    wire.cut("b", "a"); // and b cannot pull a's records itself
    wire.write("a", "k1", "v1");
    wire.advanceTo(wire.now + 6_000);
    wire.log.clear();
    for (int i = 0; i < 400 && wire.log.stream().noneMatch(l -> l.startsWith("a>b ")); i++) {
      wire.advanceTo(wire.now + 10); // until a's next try fails: the one after it is 3 s away
    }
    assertThat(wire.log).as("a kept trying").anyMatch(l -> l.startsWith("a>b batch 1"));
    wire.heal();
    assertThat(wire.core("b").liveRecords()).doesNotContainKey("k1");
    wire.log.clear();
    wire.run("a", wire.core("a").memberAnsweredAgain("b", wire.now));
    assertThat(wire.log).as("sent at once, with a digest").contains("a>b batch 1+digest");
    assertThat(wire.core("b").liveRecords()).containsKey("k1");
    wire.assertViewsMatchCores();
  }

  @Test
  void digestWaitsForTheBatchInFlightAndRidesOnTheBatchThatDrainsTheQueue() {
    DistroCore a = readyCore(TRAILING.toBuilder().maxBatchSize(2).build());
    List<DistroEffect.SendBatch> sent = new java.util.ArrayList<>();
    for (int i = 0; i < 6; i++) {
      sent.addAll(batchesTo("b", a.localChange("k" + i, bytes("v"), 4900)));
    }
    assertThat(sent).as("k0,k1 left at once; 4 keys wait behind them").hasSize(1);
    assertThat(a.pipelineTo("b").pendingCount()).isEqualTo(4);
    a.tick(5000); // verify round due while a batch is in flight
    var second = batchesTo("b", a.batchAcked("b", sent.get(0).batch().sequence(), 5010));
    assertThat(second).singleElement().satisfies(s -> {
      assertThat(s.batch().records()).hasSize(2);
      assertThat(s.batch().digest()).as("2 keys still pending after it").isEmpty();
    });
    var third = batchesTo("b", a.batchAcked("b", second.get(0).batch().sequence(), 5020));
    assertThat(third).singleElement().satisfies(s -> {
      assertThat(s.batch().records()).hasSize(2);
      assertThat(s.batch().digest()).as("drains the queue").contains(a.digestOf("a"));
    });
    assertThat(a.pipelineTo("b").isDigestDue()).isFalse();
  }

  @Test
  void statusCountsBatchesByOutcomeRecordsAcknowledgedAndTheInitialLoad() {
    DistroCore a = readyCore(TRAILING);
    DistroStatus.PeerTraffic start = a.status().trafficByPeer().get("b");
    assertThat(start.batchesAcked()).as("the digest batch after start").isEqualTo(1);
    assertThat(start.recordsAcked()).isZero();
    assertThat(a.status().snapshotsLoaded()).isEqualTo(1);

    a.localChange("k1", bytes("v"), 1000);
    a.localChange("k2", bytes("v"), 1000);
    var flushed = a.tick(1200);
    var first = batchesTo("b", flushed).get(0);
    a.batchAcked("c", batchesTo("c", flushed).get(0).batch().sequence(), 1250);
    a.batchFailed("b", first.batch().sequence(), 1300);
    var retry = batchesTo("b", a.tick(5000)).get(0);
    a.batchAcked("b", retry.batch().sequence(), 5000);

    DistroStatus.PeerTraffic b = a.status().trafficByPeer().get("b");
    assertThat(b.batchesFailed()).isEqualTo(1);
    assertThat(b.batchesAcked()).isEqualTo(2);
    assertThat(b.recordsAcked()).as("the retried batch's two records, counted once").isEqualTo(2);
    assertThat(b.lastAckMillis()).as("the retry's acknowledgement").isEqualTo(5000);
    assertThat(a.status().trafficByPeer().get("c")).isEqualTo(new DistroStatus.PeerTraffic(2, 2, 0, 1250));
    assertThat(a.status().repairs()).isZero();
  }
}
