package dev.nacre.consensus.raft.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class LeaderForwardsTest {
  private record Sent(String to, byte[] forward, CompletableFuture<byte[]> reply) {}

  private final AtomicReference<String> leader = new AtomicReference<>();
  private final List<Sent> sent = new CopyOnWriteArrayList<>();
  private final List<List<TrackedOperation>> committedHere = new CopyOnWriteArrayList<>();
  private final List<CompletableFuture<List<byte[]>>> localCommits = new CopyOnWriteArrayList<>();
  private final AppliedIndexWaiters applied = new AppliedIndexWaiters();

  private LeaderForwards forwards(Duration timeout) {
    return new LeaderForwards("n2", () -> Optional.ofNullable(leader.get()), (to, forward, timeoutNanos) -> {
      CompletableFuture<byte[]> reply = new CompletableFuture<>();
      sent.add(new Sent(to, forward, reply));
      return reply;
    }, ops -> {
      committedHere.add(ops);
      CompletableFuture<List<byte[]>> commit = new CompletableFuture<>();
      localCommits.add(commit);
      return commit;
    }, applied, timeout.toNanos(), Runnable::run);
  }

  private static List<TrackedOperation> batch(long... sequences) {
    return java.util.Arrays.stream(sequences)
        .mapToObj(s -> new TrackedOperation(("op" + s).getBytes(StandardCharsets.UTF_8), "n2/run", s)).toList();
  }

  private static byte[] reply(long appliedIndex, byte... results) {
    List<byte[]> tagged = new java.util.ArrayList<>();
    for (byte r : results) {
      tagged.add(ApplyResult.ok(new byte[] {r}));
    }
    return EntryCodec.encodeForwardReply(tagged, appliedIndex);
  }

  @Test
  void aBatchGoesToTheLeaderAndIsAnsweredOnceThisMemberAppliedAsFarAsTheLeaderHad() {
    leader.set("n1");
    LeaderForwards forwards = forwards(Duration.ofSeconds(5));
    CompletableFuture<List<byte[]>> result = forwards.forward(batch(1, 2));

    assertThat(sent).singleElement().satisfies(s -> {
      assertThat(s.to()).isEqualTo("n1");
      assertThat(EntryCodec.decodeForward(s.forward()).orElseThrow()).extracting(TrackedOperation::sequence)
          .containsExactly(1L, 2L);
    });
    sent.get(0).reply().complete(reply(7, (byte) 1, (byte) 2));
    assertThat(result).as("the leader applied index 7; this member has not").isNotDone();

    applied.advance(7);
    assertThat(result.join()).extracting(ApplyResult::decode).containsExactly(new byte[] {1}, new byte[] {2});
    assertThat(forwards.inFlight()).isZero();
    assertThat(committedHere).isEmpty();
  }

  @Test
  void aNewLeaderGetsTheBatchAtOnceAndTheFirstAnswerWins() {
    leader.set("n1");
    LeaderForwards forwards = forwards(Duration.ofSeconds(5));
    CompletableFuture<List<byte[]>> result = forwards.forward(batch(3));

    leader.set("n3");
    forwards.leaderChanged("n3");
    assertThat(sent).extracting(Sent::to).containsExactly("n1", "n3");
    assertThat(sent.get(1).forward()).as("the same operations, the same identities").isEqualTo(sent.get(0).forward());

    sent.get(1).reply().complete(reply(0, (byte) 5));
    assertThat(result.join()).extracting(ApplyResult::decode).containsExactly(new byte[] {5});
    sent.get(0).reply().complete(reply(0, (byte) 9));
    assertThat(result.join()).extracting(ApplyResult::decode).as("the first answer stays")
        .containsExactly(new byte[] {5});

    forwards.leaderChanged("n1");
    assertThat(sent).as("an answered batch is not sent again").hasSize(2);
  }

  @Test
  void whenThisMemberLeadsItCommitsTheBatchesStillInFlightItself() {
    leader.set("n1");
    LeaderForwards forwards = forwards(Duration.ofSeconds(5));
    CompletableFuture<List<byte[]>> result = forwards.forward(batch(4, 5));

    leader.set("n2");
    forwards.leaderChanged("n2");
    assertThat(committedHere).singleElement().extracting(ops -> ops.stream().map(TrackedOperation::sequence).toList())
        .isEqualTo(List.of(4L, 5L));
    localCommits.get(0).complete(List.of(ApplyResult.ok(new byte[] {4}), ApplyResult.ok(new byte[] {5})));
    assertThat(result.join()).extracting(ApplyResult::decode).containsExactly(new byte[] {4}, new byte[] {5});
  }

  @Test
  void aFailedAttemptIsTriedAgainOnceAndABatchWithNoLeaderWaitsForOne() {
    LeaderForwards forwards = forwards(Duration.ofSeconds(5));
    CompletableFuture<List<byte[]>> result = forwards.forward(batch(6));
    assertThat(sent).as("no leader known: nothing sent yet").isEmpty();

    leader.set("n1");
    await().atMost(Duration.ofSeconds(2)).until(() -> sent.size() == 1);
    sent.get(0).reply().completeExceptionally(new IllegalStateException("UNAVAILABLE"));
    await().atMost(Duration.ofSeconds(2)).until(() -> sent.size() == 2);
    assertThat(sent).extracting(Sent::to).containsExactly("n1", "n1");

    // A leader change while attempt 2 is out: attempt 3 goes to n3; attempt 2 failing later starts nothing.
    leader.set("n3");
    forwards.leaderChanged("n3");
    sent.get(1).reply().completeExceptionally(new IllegalStateException("deadline exceeded"));
    sent.get(2).reply().complete(reply(0, (byte) 6));
    assertThat(result.join()).extracting(ApplyResult::decode).containsExactly(new byte[] {6});
    assertThat(sent).hasSize(3);
  }

  @Test
  void aBatchNoLeaderAnswersFailsOnceItsTimeoutHasPassed() {
    leader.set("n1");
    LeaderForwards forwards = forwards(Duration.ofMillis(200));
    CompletableFuture<List<byte[]>> result = forwards.forward(batch(8));
    long start = System.nanoTime();
    // Every attempt fails at once; the batch is tried every 20 ms until its time is up.
    await().atMost(Duration.ofSeconds(2)).until(() -> {
      sent.stream().filter(s -> !s.reply().isDone())
          .forEach(s -> s.reply().completeExceptionally(new IllegalStateException("refused")));
      return result.isDone();
    });
    assertThat(result).failsWithin(Duration.ZERO).withThrowableOfType(ExecutionException.class)
        .withCauseInstanceOf(TimeoutException.class);
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isBetween(150L, 1500L);
    assertThat(sent.size()).as("about one attempt per 20 ms, not a storm").isBetween(2, 15);
    assertThat(forwards.inFlight()).isZero();
  }
}
