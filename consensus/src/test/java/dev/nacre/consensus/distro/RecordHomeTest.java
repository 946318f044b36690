package dev.nacre.consensus.distro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Replicators whose application keeps its own keys (a {@link MapHome}), written by several threads
 * at once on several members, beside keys the replicators keep themselves.
 */
@Timeout(60)
class RecordHomeTest {
  static final List<String> MEMBERS = List.of("a", "b", "c");
  static final Duration DEADLINE = Duration.ofSeconds(20);
  /** The two writes of one key that the digest tests make, {@link #SECOND} the newer. */
  static final String KEY = MapHome.PREFIX + "k";
  static final DistroRecord FIRST = DistroRecord.live(KEY, "a", 10, new byte[] {1});
  static final DistroRecord SECOND = DistroRecord.live(KEY, "a", 11, new byte[] {2});

  final InMemoryTransport network = new InMemoryTransport();
  final Map<String, DistroReplicator> replicators = new TreeMap<>();
  final Map<String, MapHome> homes = new TreeMap<>();
  final Map<String, RecordingHandler> handlers = new TreeMap<>();
  final ExecutorService writers = Executors.newFixedThreadPool(6);

  @AfterEach
  void closeAll() {
    writers.shutdownNow();
    replicators.values().forEach(DistroReplicator::close);
  }

  DistroReplicator start(String id) {
    return start(id, network.from(id));
  }

  DistroReplicator start(String id, DistroTransport transport) {
    MapHome home = new MapHome();
    RecordingHandler handler = new RecordingHandler();
    DistroReplicator r = new DistroReplicator(id, MEMBERS, DistroReplicatorTest.CONFIG,
        transport, handler, home, System::currentTimeMillis);
    home.attach(r.ownWrites());
    network.register(r);
    replicators.put(id, r);
    homes.put(id, home);
    handlers.put(id, handler);
    r.start();
    return r;
  }

  @Test
  void concurrentWritersOnEveryMemberConvergeToOneRecordPerKeyEverywhere() throws Exception {
    MEMBERS.forEach(this::start);
    replicators.values().forEach(r -> r.whenReady().join());

    List<Future<?>> work = new ArrayList<>();
    for (String member : MEMBERS) {
      for (int t = 0; t < 2; t++) {
        int seed = member.hashCode() * 31 + t;
        work.add(writers.submit(() -> {
          java.util.Random random = new java.util.Random(seed);
          for (int i = 0; i < 400; i++) { // bounded: 400 writes a thread
            String key = MapHome.PREFIX + random.nextInt(40);
            homes.get(member).write(key, random.nextInt(5) == 0 ? null : member + i);
          }
        }));
      }
      replicators.get(member).publish("plain-" + member, member.getBytes(StandardCharsets.UTF_8));
    }
    for (Future<?> f : work) {
      f.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
    }

    await().atMost(DEADLINE).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
      Map<String, DistroRecord> reference = homes.get("a").held();
      for (String m : MEMBERS) {
        assertThat(homes.get(m).held()).as("home of %s", m).isEqualTo(reference);
        assertThat(replicators.get(m).status().join().records()).as("records counted on %s", m)
            .isEqualTo(reference.size() + 3);
      }
      for (String owner : MEMBERS) {
        long live = reference.values().stream().filter(r -> r.owner().equals(owner) && !r.tombstone()).count();
        for (String m : MEMBERS) {
          DistroStatus s = replicators.get(m).status().join();
          if (m.equals(owner)) {
            assertThat(s.ownedRecords()).as("owned by %s", m).isEqualTo(live + 1);
          }
        }
      }
    });
    for (String m : MEMBERS) {
      assertThat(handlers.get(m).snapshot()).as("plain keys reach the handler of %s", m)
          .containsOnlyKeys(MEMBERS.stream().filter(o -> !o.equals(m)).map(o -> "plain-" + o).toArray(String[]::new));
      assertThat(handlers.get(m).view.keySet()).noneMatch(k -> k.startsWith(MapHome.PREFIX));
    }
  }

  @Test
  void aStartingMemberLoadsTheHomesRecordsFromAPeer() {
    start("a");
    start("b");
    replicators.get("a").whenReady().join();
    homes.get("a").write(MapHome.PREFIX + "1", "one");
    homes.get("a").write(MapHome.PREFIX + "2", "two");
    homes.get("a").write(MapHome.PREFIX + "2", null);

    start("c");
    replicators.get("c").whenReady().join();
    await().atMost(DEADLINE).untilAsserted(() ->
        assertThat(homes.get("c").held()).isEqualTo(homes.get("a").held()).hasSize(2));
    assertThat(homes.get("c").view()).containsExactly(Map.entry(MapHome.PREFIX + "1", "one"));
  }

  /**
   * A member that restarts takes back, from a peer's snapshot, the records of its own that outlive
   * a restart (the home says which: in naming, instances kept alive by beats), as they were; the
   * others go from every member.
   */
  @Test
  void aRestartedMemberTakesBackOnlyItsRecordsThatOutliveARestart() {
    MEMBERS.forEach(this::start);
    replicators.values().forEach(r -> r.whenReady().join());
    DistroRecord kept = homes.get("a").write(MapHome.PREFIX + "kept", "kept:1");
    homes.get("a").write(MapHome.PREFIX + "gone", "2");
    await().atMost(DEADLINE).untilAsserted(() -> {
      for (String m : List.of("b", "c")) {
        assertThat(homes.get(m).view()).as("view of %s", m)
            .containsOnlyKeys(MapHome.PREFIX + "kept", MapHome.PREFIX + "gone");
      }
    });

    replicators.remove("a").close();
    network.unregister("a");
    start("a");
    replicators.get("a").whenReady().join();

    assertThat(homes.get("a").held()).as("taken back as it was, before the member is ready")
        .containsExactly(Map.entry(MapHome.PREFIX + "kept", kept));
    await().atMost(DEADLINE).untilAsserted(() -> {
      for (String m : MEMBERS) {
        assertThat(homes.get(m).view()).as("view of %s", m)
            .containsExactly(Map.entry(MapHome.PREFIX + "kept", "kept:1"));
      }
    });
  }

  /** A start's load takes each part as it comes: the apply overlaps the rest of the transfer. */
  @Test
  void aStartingMemberAppliesTheLoadsPartsBeforeTheLastArrives() {
    start("a");
    start("b");
    replicators.get("a").whenReady().join();
    for (int i = 0; i < 3; i++) {
      homes.get("a").write(MapHome.PREFIX + i, "v" + i);
    }
    await().atMost(DEADLINE).until(() -> homes.get("b").held().size() == 3);
    CompletableFuture<Void> lastPart = new CompletableFuture<>();
    DistroTransport plain = network.from("c");
    DistroTransport streaming = new DistroTransport() {
      @Override
      public CompletableFuture<Void> sendBatch(String peerId, DistroBatch batch) {
        return plain.sendBatch(peerId, batch);
      }

      @Override
      public CompletableFuture<DistroSnapshot> requestSnapshot(String peerId, SnapshotRequest r) {
        return plain.requestSnapshot(peerId, r);
      }

      @Override
      public CompletableFuture<DistroSnapshot> requestSnapshot(String peerId, SnapshotRequest r,
          Consumer<List<DistroRecord>> parts) {
        return plain.requestSnapshot(peerId, r).thenCompose(whole -> {
          whole.records().forEach(record -> parts.accept(List.of(record)));
          return lastPart.thenApply(x -> new DistroSnapshot(whole.sender(), whole.scope(),
              whole.highWaterRevision(), List.of()));
        });
      }
    };

    DistroReplicator c = start("c", streaming);
    await().atMost(DEADLINE).untilAsserted(() ->
        assertThat(homes.get("c").held()).isEqualTo(homes.get("a").held()).hasSize(3));
    assertThat(c.whenReady()).as("not ready before the last part").isNotDone();
    lastPart.complete(null);
    c.whenReady().join();
    assertThat(homes.get("c").held()).isEqualTo(homes.get("a").held());
  }

  @Test
  void aHomesKeyIsNotPublishedThroughTheReplicator() {
    DistroReplicator a = start("a");
    assertThatThrownBy(() -> a.publish(MapHome.PREFIX + "x", new byte[] {1}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("home");
  }

  /**
   * A peer's snapshot lists the home off the replicator's thread: at a million instances listing
   * and encoding an owner's set held that thread for seconds, and the member fell silent.
   */
  @Test
  void aSnapshotListsTheHomeOffTheReplicatorsThread() throws Exception {
    MEMBERS.forEach(this::start);
    replicators.values().forEach(r -> r.whenReady().join());
    homes.get("a").write(MapHome.PREFIX + "k", "v");
    DistroSnapshot served = replicators.get("a").serveSnapshot(new SnapshotRequest("b", SnapshotRequest.Scope.OWNED))
        .get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
    assertThat(served.records()).extracting(DistroRecord::key).contains(MapHome.PREFIX + "k");
    assertThat(homes.get("a").listedOn).isEqualTo("distro-snapshots-a");
  }

  /**
   * A snapshot's high-water mark covers every revision below it: a write that holds a revision
   * but has not stored its record yet keeps the snapshot waiting, so the record is in it.
   */
  @Test
  void aSnapshotWaitsForAWriteThatHoldsARevisionToStoreIt() throws Exception {
    MEMBERS.forEach(this::start);
    replicators.values().forEach(r -> r.whenReady().join());
    DistroReplicator a = replicators.get("a");
    OwnWrites writes = a.ownWrites();
    CountDownLatch issued = new CountDownLatch(1);
    CountDownLatch store = new CountDownLatch(1);
    long[] revision = new long[1];
    Future<?> writer = writers.submit(() -> writes.write(() -> {
      revision[0] = writes.nextRevision(0);
      issued.countDown();
      await().atMost(DEADLINE).until(() -> store.getCount() == 0);
      DistroRecord r = DistroRecord.live(MapHome.PREFIX + "late", "a", revision[0], new byte[] {7});
      homes.get("a").store(r, held -> true);
      writes.stored(r.key(), null, RecordStamp.of(r));
      return null;
    }));
    assertThat(issued.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();

    CompletableFuture<DistroSnapshot> snapshot =
        a.serveSnapshot(new SnapshotRequest("b", SnapshotRequest.Scope.OWNED));
    await().atMost(DEADLINE).until(() -> snapshot.isDone() || distroThreadWaitsForHighWater("a"));
    assertThat(snapshot).as("served before the write it covers was stored").isNotDone();

    store.countDown();
    writer.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
    DistroSnapshot served = snapshot.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
    assertThat(served.highWaterRevision()).isGreaterThanOrEqualTo(revision[0]);
    assertThat(served.records()).extracting(DistroRecord::key).contains(MapHome.PREFIX + "late");
  }

  /**
   * The digest a batch carries sums exactly the records this member counted and sent: a record
   * the home already holds beyond the counted one (its report still on its way) waits, and the
   * digest with it.
   */
  @Test
  void aDigestWaitsForARecordTheHomeHoldsBeyondWhatWasCounted() {
    MapHome home = new MapHome();
    DistroCore a = loadedCoreOver(home);
    home.store(FIRST, held -> true);
    a.homeStored(KEY, null, RecordStamp.of(FIRST), 1000);
    home.store(SECOND, held -> true); // written; its report not yet taken
    a.pipelineTo("b").requestDigest();

    assertThat(Effects.batchesTo("b", a.tick(1300))).as("neither the counted record (replaced) nor"
        + " the uncounted one leaves, nor a digest that counts a record the peer never got").isEmpty();

    // The report arrives; the digest was due, so the batch leaves at once.
    onlyTheSecondLeavesAndTheDigestCountsIt(a,
        Effects.batchesTo("b", a.homeStored(KEY, RecordStamp.of(FIRST), RecordStamp.of(SECOND), 1400)));
  }

  /**
   * A home reports a write once it is readable, so two writers of one key may report in the other
   * order: the newer revision is what leaves, and the digest counts it alone.
   */
  @Test
  void twoWritesOfAKeyReportedOutOfOrderSendTheNewer() {
    MapHome home = new MapHome();
    DistroCore a = loadedCoreOver(home);
    home.store(FIRST, held -> true);
    home.store(SECOND, held -> true);
    a.homeStored(KEY, RecordStamp.of(FIRST), RecordStamp.of(SECOND), 1000);
    a.homeStored(KEY, null, RecordStamp.of(FIRST), 1010);
    a.pipelineTo("b").requestDigest();

    onlyTheSecondLeavesAndTheDigestCountsIt(a, Effects.batchesTo("b", a.tick(1300)));
  }

  /** {@code sent} is one batch of {@link #SECOND} alone, with a digest that counts it alone. */
  private static void onlyTheSecondLeavesAndTheDigestCountsIt(DistroCore a, List<DistroEffect.SendBatch> sent) {
    assertThat(sent).singleElement().satisfies(b -> {
      assertThat(b.batch().records()).containsExactly(SECOND);
      assertThat(b.batch().digest()).contains(a.digestOf("a"));
    });
    assertThat(a.digestOf("a")).isEqualTo(new OwnerDigest("a", 1, Hashing.digestEntry(KEY, 11, false)));
  }

  /** Core "a" over {@code home}, loaded (from an empty peer) with its first batches acknowledged. */
  private static DistroCore loadedCoreOver(MapHome home) {
    DistroCore a = new DistroCore("a", MEMBERS, DistroPipelineTest.TRAILING, home, new RevisionCounter(0), 0);
    var ask = Effects.requests(a.start(0)).get(0);
    for (var send : Effects.batches(a.snapshotReceived(ask.requestId(),
        new DistroSnapshot(ask.peer(), SnapshotRequest.Scope.ALL, 0, List.of()), 0))) {
      a.batchAcked(send.peer(), send.batch().sequence(), 0);
    }
    return a;
  }

  private static boolean distroThreadWaitsForHighWater(String member) {
    return Thread.getAllStackTraces().entrySet().stream()
        .filter(e -> e.getKey().getName().equals("distro-" + member))
        .anyMatch(e -> Arrays.stream(e.getValue())
            .anyMatch(f -> f.getClassName().endsWith("RevisionCounter") && f.getMethodName().equals("highWater")));
  }
}
