package dev.nacre.consensus.distro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Three replicators with real threads, wired through an in-memory transport. */
@Timeout(30)
class DistroReplicatorTest {
  static final List<String> MEMBERS = List.of("a", "b", "c");
  static final DistroConfig CONFIG = DistroConfig.builder()
      .flushDelay(Duration.ofMillis(50))
      .verifyInterval(Duration.ofMillis(500))
      .retryBackoff(Duration.ofMillis(20), Duration.ofMillis(200))
      .requestTimeout(Duration.ofSeconds(1))
      .snapshotTimeout(Duration.ofSeconds(1))
      .ownerGracePeriod(Duration.ofSeconds(1))
      .tickInterval(Duration.ofMillis(5))
      .build();
  static final Duration DEADLINE = Duration.ofSeconds(10);

  final InMemoryTransport network = new InMemoryTransport();
  final Map<String, DistroReplicator> replicators = new TreeMap<>();
  final Map<String, RecordingHandler> handlers = new TreeMap<>();
  final List<DistroReplicator> all = new ArrayList<>();

  @AfterEach
  void closeAll() {
    all.forEach(DistroReplicator::close);
  }

  DistroReplicator start(String id) {
    return start(id, CONFIG);
  }

  DistroReplicator start(String id, DistroConfig config) {
    RecordingHandler handler = new RecordingHandler();
    DistroReplicator r = new DistroReplicator(id, MEMBERS, config, network.from(id), handler);
    network.register(r);
    replicators.put(id, r);
    handlers.put(id, handler);
    all.add(r);
    r.start();
    return r;
  }

  void startAll() {
    MEMBERS.forEach(this::start);
    replicators.values().forEach(r -> r.whenReady().join());
  }

  /** A local write as naming does it: apply to its own view, then publish. */
  void write(String node, String key, String value) {
    handlers.get(node).view.put(key, value);
    replicators.get(node).publish(key, value.getBytes(StandardCharsets.UTF_8));
  }

  void delete(String node, String key) {
    handlers.get(node).view.remove(key);
    replicators.get(node).delete(key);
  }

  void awaitConverged(Map<String, String> expected) {
    await().atMost(DEADLINE).pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
      for (var e : handlers.entrySet()) {
        assertThat(e.getValue().snapshot()).as("view of %s", e.getKey()).isEqualTo(expected);
      }
    });
  }

  @Test
  void replicatorsConvergeOnEveryonesWrites() {
    startAll();
    Map<String, String> expected = new TreeMap<>();
    for (int i = 0; i < 300; i++) {
      String node = MEMBERS.get(i % 3);
      String key = node + "-k" + (i % 40);
      write(node, key, "v" + i);
      expected.put(key, "v" + i);
    }
    delete("b", "b-k1");
    expected.remove("b-k1");
    awaitConverged(expected);
  }

  /**
   * The periodic tick is 20 s here, longer than the test may take: batches must leave when their
   * flush window (or the leading edge's quiet time) ends, not at the next tick.
   */
  @Test
  void batchesLeaveWhenTheirWindowEndsNotAtTheNextTick() {
    DistroConfig slowTicks = CONFIG.toBuilder().tickInterval(Duration.ofSeconds(20)).build();
    DistroConfig slowTicksNoLeadingEdge = slowTicks.toBuilder().leadingEdgeFlush(false).build();
    start("a", slowTicksNoLeadingEdge);
    start("b", slowTicks);
    start("c", slowTicks);
    replicators.values().forEach(r -> r.whenReady().join());

    write("a", "window", "1"); // waits out a's 50 ms flush window
    write("b", "first", "1"); // b is idle: leaves at once
    write("b", "second", "2"); // inside b's quiet time: leaves when it ends
    await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(10)).untilAsserted(() -> {
      for (var e : handlers.entrySet()) {
        assertThat(e.getValue().snapshot()).as("view of %s", e.getKey())
            .isEqualTo(Map.of("window", "1", "first", "1", "second", "2"));
      }
    });
  }

  @Test
  void partitionedReplicatorCatchesUpAfterTheNetworkHeals() {
    startAll();
    write("a", "before", "1");
    awaitConverged(Map.of("before", "1"));

    network.isolate("c", List.of("a", "b"));
    write("a", "during-a", "2");
    write("c", "during-c", "3");
    delete("b", "before");
    await().atMost(DEADLINE).untilAsserted(() ->
        assertThat(handlers.get("b").snapshot()).containsEntry("during-a", "2"));
    assertThat(handlers.get("c").snapshot()).containsOnlyKeys("before", "during-c");

    network.healAll();
    awaitConverged(Map.of("during-a", "2", "during-c", "3"));
  }

  @Test
  void startingReplicatorLoadsEverythingBeforeItIsReady() {
    start("a");
    start("b");
    network.cut("b", "c");
    replicators.get("a").whenReady().join();
    replicators.get("b").whenReady().join();
    write("a", "ka", "1");
    write("b", "kb", "2");
    await().atMost(DEADLINE).untilAsserted(() ->
        assertThat(handlers.get("a").snapshot()).containsOnlyKeys("ka", "kb"));
    await().atMost(DEADLINE).untilAsserted(() ->
        assertThat(handlers.get("b").snapshot()).containsOnlyKeys("ka", "kb"));

    DistroReplicator c = start("c"); // asks a first (ring order after c); b cannot reach c
    c.whenReady().join();
    assertThat(handlers.get("c").viewWhenReady).isEqualTo(Map.of("ka", "1", "kb", "2"));
    DistroStatus status = c.status().join();
    assertThat(status.ready()).isTrue();
    assertThat(status.liveRecords()).isEqualTo(2);
    assertThat(status.ownedRecords()).isZero();
    assertThat(status.pendingKeysByPeer()).containsOnlyKeys("a", "b");
  }

  @Test
  void recordsOfAStoppedMemberGoAfterTheGracePeriod() {
    startAll();
    write("a", "ka", "1");
    write("c", "kc", "3");
    awaitConverged(Map.of("ka", "1", "kc", "3"));

    replicators.get("c").close();
    network.unregister("c");
    long downAt = System.nanoTime();
    replicators.get("a").memberDown("c");
    replicators.get("b").memberDown("c");
    handlers.remove("c");
    awaitConverged(Map.of("ka", "1"));
    assertThat(Duration.ofNanos(System.nanoTime() - downAt))
        .as("not before the grace period").isGreaterThanOrEqualTo(CONFIG.ownerGracePeriod());
  }

  @Test
  void ownershipFollowsMembership() {
    startAll();
    DistroReplicator a = replicators.get("a");
    assertThat(a.ownershipMapper().members()).containsExactly("a", "b", "c");
    a.memberDown("b");
    assertThat(a.ownershipMapper().members()).containsExactly("a", "c");
    assertThat(a.ownershipMapper().ownerOf("orders")).isIn("a", "c");
  }

  @Test
  void callsAfterCloseFailClearly() {
    DistroReplicator a = start("a");
    assertThatThrownBy(a::start).isInstanceOf(IllegalStateException.class);
    a.close();
    assertThatThrownBy(() -> a.publish("k", new byte[0]))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    assertThat(a.receiveBatch(new DistroBatch("b", 1, List.of(), java.util.Optional.empty())))
        .isCompletedExceptionally();
  }

  @Test
  void theProtocolClockStartsAtTheNodesWallClockThenFollowsTheMonotonicOne() {
    // A wall clock that never moves, as one stepped back to the same instant again and again:
    // the protocol's clock starts from it, reads it once, and still advances.
    LongSupplier protocol = DistroReplicator.monotonicMillis(Clock.fixed(Instant.ofEpochMilli(5_000_000), ZoneOffset.UTC));
    long first = protocol.getAsLong();
    assertThat(first).isBetween(5_000_000L, 5_010_000L);
    AtomicLong last = new AtomicLong(first);
    await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(1)).until(() -> {
      long now = protocol.getAsLong();
      assertThat(now).as("never goes back").isGreaterThanOrEqualTo(last.getAndSet(now));
      return now >= first + 5;
    });
  }
}
