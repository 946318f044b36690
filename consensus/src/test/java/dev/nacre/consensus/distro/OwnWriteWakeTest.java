package dev.nacre.consensus.distro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Own writes wake the replicator's thread only when they may leave sooner than its next wake
 * ({@link OwnWriteQueue}). The periodic tick is set far beyond the test, so a write that failed
 * to wake the thread when it had to would not reach the peers in time.
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

  @AfterEach
  void closeAll() {
    replicators.values().forEach(DistroReplicator::close);
  }

  void startAll() {
    for (String id : MEMBERS) {
      MapHome home = new MapHome();
      DistroReplicator r = new DistroReplicator(id, MEMBERS, CONFIG, network.from(id),
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

  @Test
  void aBurstOfWritesWakesTheThreadAFewTimesAndReachesEveryPeer() {
    startAll();
    DistroReplicator a = replicators.get("a");
    long wakesBefore = a.ownWriteWakes();
    Map<String, String> written = new TreeMap<>();
    for (int i = 0; i < 300; i++) { // bounded: 300 writes
      String key = MapHome.PREFIX + "burst-" + i;
      homes.get("a").write(key, "v" + i);
      written.put(key, "v" + i);
    }
    awaitEveryHomeHolds(written);
    // Each flush window asks for a wake or two (the first write of a burst may leave at once);
    // a wake per write would be 300.
    assertThat(a.ownWriteWakes() - wakesBefore).as("wakes for 300 writes").isLessThan(30);
  }

  @Test
  void aLoneWriteAfterAQuietWindowStillLeavesAtOnce() {
    startAll();
    for (int i = 0; i < 3; i++) { // bounded: three lone writes, each after the window went quiet
      String key = MapHome.PREFIX + "lone-" + i;
      long wakesBefore = replicators.get("a").ownWriteWakes();
      homes.get("a").write(key, "v" + i);
      awaitEveryHomeHolds(Map.of(key, "v" + i));
      assertThat(replicators.get("a").ownWriteWakes()).as("a lone write asks for a wake")
          .isGreaterThan(wakesBefore);
      // Idle: the batch was answered and nothing is pending, so the next write must wake the thread.
      int sent = i + 1;
      await().atMost(PROMPTLY).until(() -> {
        DistroStatus s = replicators.get("a").status().join();
        return s.pendingKeysByPeer().values().stream().allMatch(n -> n == 0)
            && s.trafficByPeer().values().stream().allMatch(t -> t.recordsAcked() >= sent);
      });
    }
  }
}
