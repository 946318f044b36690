package dev.nacre.consensus.distro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Own writes wake the replicator's thread only when they may leave sooner than its next wake or
 * event ({@link OwnWriteQueue}). The periodic tick is set far beyond the test, so a write that
 * failed to wake the thread when it had to would not reach the peers in time.
 */
@Timeout(60)
class OwnWriteWakeTest {
  static final List<String> MEMBERS = List.of("a", "b", "c");
  static final DistroConfig CONFIG = DistroConfig.builder()
      .flushDelay(Duration.ofMillis(200))
      .tickInterval(Duration.ofSeconds(30))
      .build();
  /** Well inside the tick: only a wake or an event can have sent the record. */
  static final Duration PROMPTLY = Duration.ofSeconds(10);

  final InMemoryTransport network = new InMemoryTransport();
  final Map<String, DistroReplicator> replicators = new TreeMap<>();
  final Map<String, MapHome> homes = new TreeMap<>();
  /** Answers to a's batches wait for this gate (done: they pass at once). */
  final AtomicReference<CompletableFuture<Void>> answersToA =
      new AtomicReference<>(CompletableFuture.completedFuture(null));

  @AfterEach
  void closeAll() {
    replicators.values().forEach(DistroReplicator::close);
  }

  void startAll() {
    for (String id : MEMBERS) {
      MapHome home = new MapHome();
      DistroTransport transport = id.equals("a") ? gatedAnswers(network.from(id)) : network.from(id);
      DistroReplicator r = new DistroReplicator(id, MEMBERS, CONFIG, transport,
          new RecordingHandler(), home, System::currentTimeMillis);
      home.attach(r.ownWrites());
      network.register(r);
      replicators.put(id, r);
      homes.put(id, home);
      r.start();
    }
    replicators.values().forEach(r -> r.whenReady().join());
  }

  void awaitEveryHomeHolds(Map<String, String> expected) {
    await().atMost(PROMPTLY).pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
      for (String m : MEMBERS) {
        assertThat(homes.get(m).view()).as("home of %s", m).containsAllEntriesOf(expected);
      }
    });
  }

  /** {@code direct}, with each batch's answer held until {@link #answersToA}'s gate opens. */
  private DistroTransport gatedAnswers(DistroTransport direct) {
    return new DistroTransport() {
      @Override
      public CompletableFuture<Void> sendBatch(String peerId, DistroBatch batch) {
        CompletableFuture<Void> gate = answersToA.get();
        return direct.sendBatch(peerId, batch).thenCombine(gate, (ok, open) -> ok);
      }

      @Override
      public CompletableFuture<DistroSnapshot> requestSnapshot(String peerId, SnapshotRequest r) {
        return direct.requestSnapshot(peerId, r);
      }
    };
  }

  @Test
  void writesWhileABatchIsInFlightWaitForItsAnswerWithoutWakingTheThread() {
    startAll();
    DistroReplicator a = replicators.get("a");
    await().atMost(PROMPTLY).until(() -> a.quiet().join());
    CompletableFuture<Void> held = new CompletableFuture<>();
    answersToA.set(held);
    homes.get("a").write(MapHome.PREFIX + "first", "v");
    awaitEveryHomeHolds(Map.of(MapHome.PREFIX + "first", "v")); // its batch arrived; the answers wait

    long wakesBefore = a.ownWriteWakes();
    Map<String, String> written = new TreeMap<>();
    for (int i = 0; i < 50; i++) { // bounded: 50 writes
      String key = MapHome.PREFIX + "held-" + i;
      homes.get("a").write(key, "v" + i);
      written.put(key, "v" + i);
    }
    // Each would only join the next batch, which cannot leave before the answer: no wake.
    assertThat(a.ownWriteWakes()).as("wakes while a batch is in flight").isEqualTo(wakesBefore);

    held.complete(null); // the answer is the event that takes them
    awaitEveryHomeHolds(written);
  }

  @Test
  void aLoneWriteToQuietPeersWakesTheThreadAndLeavesAtOnce() {
    startAll();
    DistroReplicator a = replicators.get("a");
    for (int i = 0; i < 3; i++) { // bounded: three lone writes, each once every peer is quiet
      // Quiet: nothing pending, no batch in flight (a start's digests may be), so the write may lead.
      await().atMost(PROMPTLY).until(() -> a.quiet().join());
      String key = MapHome.PREFIX + "lone-" + i;
      long wakesBefore = a.ownWriteWakes();
      homes.get("a").write(key, "v" + i);
      awaitEveryHomeHolds(Map.of(key, "v" + i));
      assertThat(a.ownWriteWakes()).as("a lone write asks for a wake").isGreaterThan(wakesBefore);
    }
  }
}
