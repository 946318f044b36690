package dev.nacre.consensus.distro;

import static dev.nacre.consensus.distro.DistroPipelineTest.readyCore;
import static dev.nacre.consensus.distro.Effects.batches;
import static dev.nacre.consensus.distro.Effects.batchesTo;
import static dev.nacre.consensus.distro.Effects.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The leading-edge flush (on by default): a change to an idle peer leaves at once, while a busy
 * peer still gets at most one batch per flush delay. {@code readyCore} acknowledged its digest
 * batches at time 0, so every peer is idle from 200 ms on.
 */
@Timeout(10)
class DistroLeadingEdgeTest {
  static final long FLUSH = DistroConfig.defaults().flushDelay().toMillis();

  @Test
  void loneChangeToAnIdlePeerLeavesAtOnce() {
    DistroCore a = readyCore(DistroConfig.defaults());
    var sent = a.localChange("k1", bytes("v1"), 1000);
    assertThat(batchesTo("b", sent)).singleElement().satisfies(s ->
        assertThat(s.batch().records()).extracting(DistroRecord::key).containsExactly("k1"));
    assertThat(batchesTo("c", sent)).hasSize(1);
    batches(sent).forEach(s -> a.batchAcked(s.peer(), s.batch().sequence(), 1005));

    long idleAgain = 1000 + FLUSH;
    assertThat(batchesTo("b", a.localChange("k2", bytes("v"), idleAgain)))
        .as("a flush delay after the last batch the peer is idle again").hasSize(1);
  }

  @Test
  void burstWithinAWindowGoesAsTheLeadingChangeThenOneMergedBatch() {
    DistroCore a = readyCore(DistroConfig.defaults());
    int n = 40;
    Map<Long, List<DistroEffect.SendBatch>> toB = new HashMap<>();
    for (long t = 1000; t <= 1600; t++) {
      List<DistroEffect> effects = new ArrayList<>();
      long i = t - 1000;
      if (i % 3 == 0 && i / 3 < n) { // n changes over 117 ms, every key twice
        effects.addAll(a.localChange("k" + (i / 3) % (n / 2), bytes("v" + i), t));
      }
      if (t % 10 == 0) {
        effects.addAll(a.tick(t));
      }
      for (var s : batches(effects)) {
        a.batchAcked(s.peer(), s.batch().sequence(), t); // a prompt peer: busy only by the window
        if (s.peer().equals("b")) {
          toB.computeIfAbsent(t, x -> new ArrayList<>()).add(s);
        }
      }
    }
    assertThat(toB).as("leading batch at once, the merged rest when its window ends")
        .containsOnlyKeys(1000L, 1000L + FLUSH);
    assertThat(toB.get(1000L)).singleElement().satisfies(s ->
        assertThat(s.batch().records()).extracting(DistroRecord::key).containsExactly("k0"));
    assertThat(toB.get(1000L + FLUSH)).singleElement().satisfies(s -> {
      assertThat(s.batch().records()).as("merged by key").hasSize(n / 2);
      assertThat(s.batch().records()).as("latest value of each key")
          .allSatisfy(r -> assertThat(a.record(r.key())).contains(r));
    });
  }

  /**
   * A busy peer, seeded: changes at random gaps, acknowledgements after a random delay, for 5 s.
   * Batches to a peer never leave less than a flush delay apart, and no change waits longer than
   * a flush delay plus the slowest acknowledgement plus a tick.
   */
  @Test
  void busyPeerGetsAtMostOneBatchPerFlushDelay() {
    long seed = Long.getLong("distro.leading.seed", System.nanoTime());
    System.out.println("leading-edge busy-peer run: seed=" + seed
        + " (replay with -Ddistro.leading.seed=" + seed + ")");
    Random random = new Random(seed);
    int maxAckDelay = 250; // sometimes past the window: in flight keeps the peer busy
    DistroCore a = readyCore(DistroConfig.builder()
        .verifyInterval(Duration.ofHours(1)).build()); // digests ride on their own schedule
    Map<Long, Long> ackAt = new HashMap<>(); // sequence to b -> when b answers
    Map<String, Long> waitingSince = new HashMap<>();
    List<Long> sendTimes = new ArrayList<>();
    long nextWrite = 1000;
    int batchesToB = 0;
    int writes = 0;
    for (long t = 1000; t <= 6000; t++) {
      List<DistroEffect> effects = new ArrayList<>();
      if (t == nextWrite) {
        String key = "k" + random.nextInt(200);
        waitingSince.putIfAbsent(key, t);
        effects.addAll(a.localChange(key, bytes("v" + t), t));
        nextWrite = t + 1 + random.nextInt(60); // never t itself: the loop has moved past it
        writes++;
      }
      for (var e : new ArrayList<>(ackAt.entrySet())) {
        if (e.getValue() == t) {
          ackAt.remove(e.getKey());
          effects.addAll(a.batchAcked("b", e.getKey(), t));
        }
      }
      if (t % 10 == 0) {
        effects.addAll(a.tick(t));
      }
      for (var s : batches(effects)) {
        if (s.peer().equals("b")) {
          batchesToB++;
          sendTimes.add(t);
          // Never at t itself: this instant's acknowledgements were already delivered above, so
          // one due now would never arrive and the batch would wait for its retry instead.
          ackAt.put(s.batch().sequence(), t + 1 + random.nextInt(maxAckDelay));
          for (DistroRecord r : s.batch().records()) {
            long since = waitingSince.remove(r.key());
            assertThat(t - since).as("wait of %s sent at %d", r.key(), t)
                .isLessThanOrEqualTo(FLUSH + maxAckDelay + 10);
          }
        } else {
          a.batchAcked(s.peer(), s.batch().sequence(), t);
        }
      }
    }
    for (int i = 1; i < sendTimes.size(); i++) {
      assertThat(sendTimes.get(i) - sendTimes.get(i - 1)).as("gap before batch %d", i)
          .isGreaterThanOrEqualTo(FLUSH);
    }
    assertThat(batchesToB).as("%d writes batched", writes)
        .isGreaterThan(1).isLessThanOrEqualTo(5000 / (int) FLUSH + 1);
  }

  @Test
  void maxBatchSizeKeysStillLeaveAtOnceInsideTheWindow() {
    DistroCore a = readyCore(DistroConfig.defaults());
    var lead = batchesTo("b", a.localChange("lead", bytes("v"), 1000)).get(0);
    a.batchAcked("b", lead.batch().sequence(), 1001);
    for (int i = 0; i < 999; i++) {
      assertThat(batchesTo("b", a.localChange("k" + i, bytes("v"), 1010))).isEmpty();
    }
    var full = batchesTo("b", a.localChange("k999", bytes("v"), 1010));
    assertThat(full).as("1000 keys, 10 ms into the window").singleElement()
        .satisfies(s -> assertThat(s.batch().records()).hasSize(1000));
  }

  @Test
  void batchInFlightMakesThePeerBusyAndTheWaitingChangeLeavesOnTheAck() {
    DistroCore a = readyCore(DistroConfig.defaults());
    var first = batchesTo("b", a.localChange("k1", bytes("v"), 1000)).get(0);
    assertThat(batchesTo("b", a.localChange("k2", bytes("v"), 1500)))
        .as("window over, but k1 not answered yet").isEmpty();
    var next = batchesTo("b", a.batchAcked("b", first.batch().sequence(), 1600));
    assertThat(next).singleElement().satisfies(s ->
        assertThat(s.batch().records()).extracting(DistroRecord::key).containsExactly("k2"));
  }

  @Test
  void retriesKeepTheirBackoffAndNewChangesDoNotJumpIt() {
    DistroCore a = readyCore(DistroConfig.builder()
        .retryBackoff(Duration.ofMillis(100), Duration.ofMillis(400)).build());
    var batch = batchesTo("b", a.localChange("k1", bytes("old"), 1000)).get(0);
    long failedAt = 1050;
    a.batchFailed("b", batch.batch().sequence(), failedAt);
    long[] expectedDelays = {100, 200, 400, 400};
    int i = 0;
    for (long delay : expectedDelays) {
      // the window of the last batch is over long before the longer retries are due
      var early = a.localChange("n" + i++, bytes("v"), failedAt + delay - 1);
      assertThat(batchesTo("b", early)).as("change %d ms into a %d ms backoff", delay - 1, delay)
          .isEmpty();
      assertThat(batchesTo("b", a.tick(failedAt + delay - 1))).isEmpty();
      var retry = batchesTo("b", a.tick(failedAt + delay));
      assertThat(retry).as("retry after %d ms", delay).singleElement().satisfies(s ->
          assertThat(s.batch().records()).extracting(DistroRecord::key).contains("k1"));
      failedAt += delay;
      a.batchFailed("b", retry.get(0).batch().sequence(), failedAt);
    }
    var last = batchesTo("b", a.tick(failedAt + 400)).get(0);
    assertThat(last.batch().records()).hasSize(1 + expectedDelays.length);
    a.batchAcked("b", last.batch().sequence(), failedAt + 401);
    assertThat(batchesTo("b", a.localChange("k3", bytes("v"), failedAt + 400 + FLUSH)))
        .as("ack ended the backoff; idle again a flush delay after the last batch").hasSize(1);
  }

  @Test
  void switchedOffEveryChangeWaitsTheFlushDelay() {
    DistroCore a = readyCore(DistroConfig.builder().leadingEdgeFlush(false).build());
    assertThat(batchesTo("b", a.localChange("k1", bytes("v"), 1000))).isEmpty();
    assertThat(batchesTo("b", a.tick(1000 + FLUSH - 1))).isEmpty();
    assertThat(batchesTo("b", a.tick(1000 + FLUSH))).hasSize(1);
  }
}
