package dev.nacre.consensus.raft.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The group-commit core without Raft: a recording sender whose batches the test completes by hand. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class OperationBatcherTest {
  /** Records every batch it is given; the test decides when each completes. */
  private static final class RecordingSender {
    final List<List<String>> batches = new ArrayList<>();
    final List<CompletableFuture<List<byte[]>>> replies = new ArrayList<>();

    synchronized CompletableFuture<List<byte[]>> send(List<byte[]> operations) {
      batches.add(operations.stream().map(b -> new String(b, StandardCharsets.UTF_8)).toList());
      CompletableFuture<List<byte[]>> reply = new CompletableFuture<>();
      replies.add(reply);
      return reply;
    }

    /** Answers batch {@code i} with each operation's text upper-cased. */
    void answer(int i) {
      CompletableFuture<List<byte[]>> reply;
      List<String> batch;
      synchronized (this) {
        reply = replies.get(i);
        batch = batches.get(i);
      }
      reply.complete(batch.stream().map(s -> s.toUpperCase().getBytes(StandardCharsets.UTF_8)).toList());
    }

    synchronized List<List<String>> batches() {
      return List.copyOf(batches);
    }
  }

  private final RecordingSender sender = new RecordingSender();
  /** The test clock that times batches' round trips (for the batchers that take it). */
  private final AtomicLong clock = new AtomicLong();
  /** The waits that lingers asked their timer for, and how to end each: the test ends them by hand. */
  private final List<Duration> lingerWaits = new ArrayList<>();
  private final List<Runnable> lingerEnds = new ArrayList<>();

  private void scheduleLingerEnd(long nanos, Runnable end) {
    lingerWaits.add(Duration.ofNanos(nanos));
    lingerEnds.add(end);
  }

  private static byte[] op(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * After {@link #afterBatchesOfOneAndTwo}: d waits out a linger of {@code wait}, then leaves in a
   * batch of its own and is answered.
   */
  private void dLingersAndLeavesAlone(OperationBatcher<byte[]> batcher, Duration wait) {
    CompletableFuture<byte[]> d = batcher.submit(op("d"));
    assertThat(sender.batches()).as("lingering").hasSize(2);
    assertThat(lingerWaits).containsExactly(wait);

    lingerEnds.get(0).run();
    assertThat(sender.batches()).hasSize(3);
    assertThat(sender.batches().get(2)).containsExactly("d");
    sender.answer(2);
    assertThat(text(d)).isEqualTo("D");
  }

  /** A batcher of one batch in flight at a time, up to 100 operations, which has sent a alone. */
  private OperationBatcher<byte[]> oneInFlightWithAOut() {
    OperationBatcher<byte[]> batcher = new OperationBatcher<>(1, 100, 0, sender::send, Runnable::run);
    batcher.submit(op("a"));
    return batcher;
  }

  private static String text(CompletableFuture<byte[]> f) {
    return new String(f.join(), StandardCharsets.UTF_8);
  }

  @Test
  void aLoneOperationLeavesAtOnceAndLaterOnesShareTheNextBatchInOrder() {
    OperationBatcher<byte[]> batcher = new OperationBatcher<>(1, 100, 0, sender::send, Runnable::run);
    CompletableFuture<byte[]> a = batcher.submit(op("a"));
    assertThat(sender.batches()).containsExactly(List.of("a"));

    CompletableFuture<byte[]> b = batcher.submit(op("b"));
    CompletableFuture<byte[]> c = batcher.submit(op("c"));
    CompletableFuture<byte[]> d = batcher.submit(op("d"));
    assertThat(sender.batches()).as("one batch in flight: the rest wait").hasSize(1);
    assertThat(batcher.queued()).isEqualTo(3);

    sender.answer(0);
    assertThat(text(a)).isEqualTo("A");
    assertThat(sender.batches()).containsExactly(List.of("a"), List.of("b", "c", "d"));
    assertThat(b).isNotDone();

    sender.answer(1);
    assertThat(List.of(text(b), text(c), text(d))).containsExactly("B", "C", "D");
    assertThat(batcher.queued()).isZero();
  }

  @Test
  void aBatchCarriesAtMostItsBytesAndALargerOperationLeavesAlone() {
    OperationBatcher<byte[]> batcher =
        new OperationBatcher<>(1, 100, op -> op.length, 0, sender::send, Runnable::run);
    batcher.submit(op("a"));
    int half = OperationBatcher.MAX_BATCH_BYTES / 2;
    String big = "b".repeat(half);
    String bigger = "c".repeat(half + 1);
    String huge = "d".repeat(OperationBatcher.MAX_BATCH_BYTES * 3);
    List<CompletableFuture<byte[]>> results = new ArrayList<>();
    for (String s : List.of(big, bigger, huge, "e")) {
      results.add(batcher.submit(op(s)));
    }
    sender.answer(0);
    sender.answer(1);
    sender.answer(2);
    sender.answer(3);
    assertThat(sender.batches()).as("b and c together pass the cap; d alone; e after it")
        .containsExactly(List.of("a"), List.of(big), List.of(bigger), List.of(huge), List.of("e"));
    sender.answer(4);
    assertThat(results).allMatch(CompletableFuture::isDone);
  }

  @Test
  void keepsUpToTheGivenBatchesInFlightAndCapsTheirSize() {
    OperationBatcher<byte[]> batcher = new OperationBatcher<>(2, 2, 0, sender::send, Runnable::run);
    List<CompletableFuture<byte[]>> results = new ArrayList<>();
    for (String s : List.of("a", "b", "c", "d", "e", "f")) {
      results.add(batcher.submit(op(s)));
    }
    assertThat(sender.batches()).containsExactly(List.of("a"), List.of("b"));
    sender.answer(1);
    assertThat(sender.batches()).as("a slot freed: the next batch takes at most 2")
        .containsExactly(List.of("a"), List.of("b"), List.of("c", "d"));
    sender.answer(0);
    sender.answer(2);
    sender.answer(3);
    assertThat(sender.batches()).hasSize(4);
    assertThat(sender.batches().get(3)).containsExactly("e", "f");
    assertThat(results).allSatisfy(f -> assertThat(f).isCompleted());
  }

  @Test
  void aFailedBatchFailsEachOfItsOperationsAndTheNextBatchStillLeaves() {
    OperationBatcher<byte[]> batcher = oneInFlightWithAOut();
    CompletableFuture<byte[]> b = batcher.submit(op("b"));
    CompletableFuture<byte[]> c = batcher.submit(op("c"));
    sender.replies.get(0).completeExceptionally(new IllegalStateException("no quorum"));
    assertThat(sender.batches()).containsExactly(List.of("a"), List.of("b", "c"));
    sender.replies.get(1).completeExceptionally(new IllegalStateException("no quorum"));
    assertThatThrownBy(b::join).isInstanceOf(CompletionException.class).hasMessageContaining("no quorum");
    assertThatThrownBy(c::join).hasMessageContaining("no quorum");
    CompletableFuture<byte[]> d = batcher.submit(op("d"));
    sender.answer(2);
    assertThat(text(d)).isEqualTo("D");
  }

  @Test
  void anOperationWhoseCallerGaveUpBeforeItsBatchFormedIsNeverSent() {
    OperationBatcher<byte[]> batcher = oneInFlightWithAOut();
    CompletableFuture<byte[]> abandoned = batcher.submit(op("b"));
    CompletableFuture<byte[]> kept = batcher.submit(op("c"));
    abandoned.cancel(false);
    sender.answer(0);
    assertThat(sender.batches()).containsExactly(List.of("a"), List.of("c"));
    sender.answer(1);
    assertThat(text(kept)).isEqualTo("C");
  }

  @Test
  void aSenderThatThrowsFailsTheBatchInsteadOfTheCaller() {
    OperationBatcher<byte[]> batcher = new OperationBatcher<>(1, 100, 0, ops -> {
      throw new IllegalStateException("client closed");
    }, Runnable::run);
    CompletableFuture<byte[]> a = batcher.submit(op("a"));
    assertThatThrownBy(a::join).hasMessageContaining("client closed");
    assertThat(batcher.queued()).isZero();
  }

  /** Sends a, then b and c together, the first batch answered {@code roundTrip} after it left (by the test clock). */
  private OperationBatcher<byte[]> afterBatchOfOneThenTwoSent(Duration linger, Duration roundTrip) {
    OperationBatcher<byte[]> batcher =
        new OperationBatcher<>(1, 100, op -> op.length, linger.toNanos(), sender::send, Runnable::run, clock::get,
            this::scheduleLingerEnd);
    batcher.submit(op("a"));
    batcher.submit(op("b"));
    batcher.submit(op("c"));
    clock.addAndGet(roundTrip.toNanos());
    sender.answer(0);
    assertThat(sender.batches()).as("a batch after a lone one never lingers")
        .containsExactly(List.of("a"), List.of("b", "c"));
    return batcher;
  }

  /**
   * As above, the second batch answered too, with nothing waiting after it: its 2 writers are the
   * ones to come back.
   */
  private OperationBatcher<byte[]> afterBatchesOfOneAndTwo(Duration linger, Duration roundTrip) {
    OperationBatcher<byte[]> batcher = afterBatchOfOneThenTwoSent(linger, roundTrip);
    clock.addAndGet(roundTrip.toNanos());
    sender.answer(1);
    return batcher;
  }

  private OperationBatcher<byte[]> afterBatchesOfOneAndTwo(Duration linger) {
    return afterBatchesOfOneAndTwo(linger, linger.multipliedBy(2)); // the linger itself bounds the wait
  }

  @Test
  void withALingerTheNextBatchLeavesOnceTheLastBatchsWritersAreBack() {
    // Writers that all shared the last batch: the next one leaves as soon as each of them is
    // back, not a linger later (the linger here is 30 s, the test's own limit 10 s).
    OperationBatcher<byte[]> batcher = afterBatchesOfOneAndTwo(Duration.ofSeconds(30));
    CompletableFuture<byte[]> d = batcher.submit(op("d"));
    assertThat(sender.batches()).as("1 of the last batch's 2 writers back: lingering").hasSize(2);
    assertThat(batcher.queued()).isEqualTo(1);

    batcher.submit(op("e"));
    assertThat(sender.batches()).as("both back: leaves without waiting out the linger")
        .hasSize(3).last().isEqualTo(List.of("d", "e"));
    sender.answer(2);
    assertThat(text(d)).isEqualTo("D");
  }

  @Test
  void withALingerWritersThatAlternateBetweenTwoBatchesMergeIntoOne() {
    Duration roundTrip = Duration.ofSeconds(60); // so that the 30 s linger bounds the wait
    OperationBatcher<byte[]> batcher = afterBatchOfOneThenTwoSent(Duration.ofSeconds(30), roundTrip);
    batcher.submit(op("d")); // a's writer, back while b and c travel
    assertThat(sender.batches()).containsExactly(List.of("a"), List.of("b", "c"));

    clock.addAndGet(roundTrip.toNanos());
    sender.answer(1);
    assertThat(sender.batches()).as("d waits for b's and c's writers").hasSize(2);
    batcher.submit(op("e"));
    assertThat(sender.batches()).as("one of them back").hasSize(2);
    CompletableFuture<byte[]> f = batcher.submit(op("f"));
    assertThat(sender.batches()).as("all three writers in one batch")
        .hasSize(3).last().isEqualTo(List.of("d", "e", "f"));
    sender.answer(2);
    assertThat(text(f)).isEqualTo("F");
  }

  @Test
  void withALingerAFewOperationsLeaveOnceItIsOver() {
    OperationBatcher<byte[]> batcher = afterBatchesOfOneAndTwo(Duration.ofSeconds(2));
    dLingersAndLeavesAlone(batcher, Duration.ofSeconds(2));
    CompletableFuture<byte[]> e = batcher.submit(op("e"));
    assertThat(sender.batches()).as("after a batch of one, the next leaves at once")
        .hasSize(4).last().isEqualTo(List.of("e"));
    sender.answer(3);
    assertThat(text(e)).isEqualTo("E");
  }

  @Test
  void aLingerWaitsAtMostFourRecentRoundTrips() {
    // Batches that come back 200 ms after they leave: a 30 s linger waits 800 ms, not 30 s. Long
    // enough for writers whose replies take longer than the entry (a follower's, which apply first).
    OperationBatcher<byte[]> batcher =
        afterBatchesOfOneAndTwo(Duration.ofSeconds(30), Duration.ofMillis(200));
    dLingersAndLeavesAlone(batcher, Duration.ofMillis(800));
  }

  @Test
  void aLingerThatRunsOutHalvesTheNextOnesWaitAndOneItsWritersEndRestoresIt() {
    Duration roundTrip = Duration.ofMillis(200);
    OperationBatcher<byte[]> batcher = afterBatchesOfOneAndTwo(Duration.ofSeconds(30), roundTrip);
    for (int miss = 0; miss < 6; miss++) {
      lingerRunsOut(batcher, roundTrip);
    }
    assertThat(lingerWaits).as("each linger that ran out halved the next one's wait, four times at most")
        .containsExactly(Duration.ofMillis(800), Duration.ofMillis(400), Duration.ofMillis(200),
            Duration.ofMillis(100), Duration.ofMillis(50), Duration.ofMillis(50));

    int sent = sender.batches().size();
    batcher.submit(op("x"));
    batcher.submit(op("y"));
    assertThat(sender.batches()).as("the linger's writers are back: it ends early")
        .hasSize(sent + 1).last().isEqualTo(List.of("x", "y"));
    clock.addAndGet(roundTrip.toNanos());
    sender.answer(sent);
    batcher.submit(op("z"));
    assertThat(lingerWaits).as("and the next linger may wait the whole four round trips again")
        .hasSize(8).last().isEqualTo(Duration.ofMillis(800));
  }

  /**
   * From a state where the last batch held two operations and none waits: one writer comes back,
   * its linger runs out, and two operations queue behind its batch of one and leave together once
   * it is answered (no linger after a batch of one), so the state is as before.
   */
  private void lingerRunsOut(OperationBatcher<byte[]> batcher, Duration roundTrip) {
    int sent = sender.batches().size();
    batcher.submit(op("lone"));
    assertThat(sender.batches()).as("lingering").hasSize(sent);
    lingerEnds.get(lingerEnds.size() - 1).run();
    assertThat(sender.batches()).hasSize(sent + 1).last().isEqualTo(List.of("lone"));
    batcher.submit(op("p"));
    batcher.submit(op("q"));
    clock.addAndGet(roundTrip.toNanos());
    sender.answer(sent);
    assertThat(sender.batches()).hasSize(sent + 2).last().isEqualTo(List.of("p", "q"));
    clock.addAndGet(roundTrip.toNanos());
    sender.answer(sent + 1);
  }
}
