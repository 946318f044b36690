package dev.nacre.naming.distro;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.consensus.distro.DistroRecord;
import dev.nacre.consensus.distro.OwnWrites;
import dev.nacre.consensus.distro.RecordHome;
import dev.nacre.consensus.distro.RecordStamp;
import dev.nacre.naming.ephemeral.EphemeralRecord;
import dev.nacre.naming.ephemeral.EphemeralStore;
import dev.nacre.naming.ephemeral.EphemeralTombstone;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.registry.RegistryIndex;
import dev.nacre.naming.support.MutableClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The ephemeral store as Distro's home, driven as the replicator drives it: peers' records ranked
 * against this member's writes under one lock, own writes reported with their stamps, values
 * encoded when read; and the handler for what the home does not keep (health records).
 */
@Timeout(10)
class EphemeralHomeTest {
  static final ServiceKey SERVICE = new ServiceKey("public", "DEFAULT_GROUP", "orders");
  static final long FAR = Long.MAX_VALUE / 2;
  final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  final RegistryIndex index = new RegistryIndex();
  final EphemeralStore store = new EphemeralStore("self", clock, index);
  final List<String> reported = new ArrayList<>();
  final List<RecordStamp> reportedStamps = new ArrayList<>();
  /** What the replicator would have read for each reported key at the moment of the report. */
  final List<RecordStamp> readableWhenReported = new ArrayList<>();
  final EphemeralHome home = new EphemeralHome(store);
  final PersistentHealthReplication health = new PersistentHealthReplication("self", index, clock);
  final ReplicaApplier applier = new ReplicaApplier("self", health, store::count);

  {
    store.replicateThrough(OwnWrites.reportingTo("self", clock::millis, (key, before, after) -> {
      reported.add(key + " " + (before == null ? "none" : before.owner()) + " -> "
          + (after.tombstone() ? "tombstone" : "live"));
      reportedStamps.add(after);
      readableWhenReported.add(home.get(key).map(RecordStamp::of).orElse(null));
    }), DistroKeys::instanceKey);
  }

  static InstanceKey key(int port) {
    return new InstanceKey(SERVICE, "DEFAULT", "10.0.0.1", port);
  }

  static String distroKey(int port) {
    return DistroKeys.instanceKey(key(port));
  }

  static Instance instance(int port, double weight) {
    return new Instance(key(port), weight, true, true, true, Map.of("v", String.valueOf(weight)));
  }

  static DistroRecord live(Instance i, String owner, long revision) {
    return DistroRecord.live(DistroKeys.instanceKey(i.key()), owner, revision, EphemeralInstanceCodec.encode(i));
  }

  /** What the replicator does with a peer's record: store it if it outranks what is held. */
  RecordHome.Stored applyIfNewer(DistroRecord r) {
    return home.store(r, held -> held == null || held.isReplacedBy(r));
  }

  @Test
  void peerRecordsBecomeReplicasAndTombstonesWithoutEcho() {
    assertThat(applyIfNewer(live(instance(1, 2.0), "peer", 10))).isEqualTo(new RecordHome.Stored(true, null));
    assertThat(index.instance(key(1), true)).contains(instance(1, 2.0));
    assertThat(store.get(key(1)).orElseThrow().ownerNodeId()).isEqualTo("peer");
    assertThat(store.ownsLocally(key(1))).isFalse();

    DistroRecord tombstone = DistroRecord.tombstone(distroKey(1), "peer", 11);
    assertThat(applyIfNewer(tombstone).previous()).isEqualTo(new RecordStamp("peer", 10, false));
    assertThat(index.instance(key(1), true)).isEmpty();
    assertThat(store.get(key(1))).isEmpty();
    assertThat(store.held(key(1))).contains(new EphemeralTombstone("peer", 11));
    assertThat(home.get(distroKey(1))).contains(tombstone);
    assertThat(applyIfNewer(live(instance(1, 2.0), "peer", 10)).stored())
        .as("the tombstone keeps an older copy from coming back").isFalse();
    assertThat(reported).as("replica changes are not this member's writes").isEmpty();
  }

  @Test
  void instancesOfAServiceShareOneServiceKeyObjectWhateverBroughtThem() {
    store.register(instance(1, 1.0));
    applyIfNewer(live(instance(2, 1.0), "peer", 10)); // decoded: a service key of its own
    store.register(new Instance(new InstanceKey(new ServiceKey("public", "DEFAULT_GROUP", "orders"),
        "DEFAULT", "10.0.0.1", 3), 1.0, true, true, true, Map.of()));

    ServiceKey first = store.get(key(1)).orElseThrow().instance().key().service();
    assertThat(store.get(key(2)).orElseThrow().instance().key().service()).isSameAs(first);
    assertThat(store.get(key(3)).orElseThrow().instance().key().service()).isSameAs(first);
    assertThat(index.instance(key(2), true).orElseThrow().key().service()).isSameAs(first);
  }

  @Test
  void recordsThatCannotBeReadAreRefusedAndTheRestStored() {
    assertThat(applyIfNewer(DistroRecord.live(distroKey(2), "peer", 5,
        "junk".getBytes(StandardCharsets.UTF_8))).stored()).isFalse();
    assertThat(applyIfNewer(DistroRecord.tombstone("ephemeral:broken", "peer", 6)).stored()).isFalse();
    assertThat(applyIfNewer(live(instance(3, 1.0), "peer", 7)).stored()).isTrue();
    assertThat(store.records()).extracting(EphemeralRecord::key).containsExactly(key(3));
    assertThat(home.homes("health:x")).isFalse();
    assertThat(home.homes(distroKey(3))).isTrue();
  }

  @Test
  void anOwnWriteAndAPeersOlderRecordAreRankedInOnePlace() {
    store.register(instance(1, 1.0));
    long own = store.get(key(1)).orElseThrow().revision();

    assertThat(applyIfNewer(live(instance(1, 3.0), "peer", own - 1)).stored())
        .as("the peer's older record loses to the own write, whatever the order they arrive in").isFalse();
    assertThat(store.ownsLocally(key(1))).isTrue();
    assertThat(index.instance(key(1), true)).contains(instance(1, 1.0));
  }

  @Test
  void aPeersNewerRecordOfAnOwnedInstanceMakesItAReplica() {
    store.register(instance(1, 1.0));
    applyIfNewer(live(instance(1, 4.0), "peer", FAR));

    assertThat(store.ownsLocally(key(1))).isFalse();
    assertThat(index.instance(key(1), true)).contains(instance(1, 4.0));
    EphemeralRecord replica = store.get(key(1)).orElseThrow();
    clock.advance(Duration.ofHours(1));
    assertThat(store.markUnhealthy(replica)).as("only the owner decides health").isFalse();
    assertThat(store.expire(replica)).as("only the owner expires").isFalse();
    assertThat(index.instance(key(1), true)).contains(instance(1, 4.0));
  }

  @Test
  void ownWritesAreReportedWithGrowingRevisionsAndADeletionLeavesATombstone() {
    applyIfNewer(live(instance(1, 1.0), "peer", 10));
    store.beat(key(1)); // takes the replica over
    store.register(instance(2, 1.0));
    store.beat(key(2)); // healthy already: only the time moves, nothing to report
    store.remove(key(2));

    assertThat(reported).containsExactly(
        distroKey(1) + " peer -> live",
        distroKey(2) + " none -> live",
        distroKey(2) + " self -> tombstone");
    assertThat(reportedStamps).extracting(RecordStamp::revision).isSorted().doesNotHaveDuplicates();
    assertThat(store.held(key(2))).get().isInstanceOf(EphemeralTombstone.class);
    assertThat(home.get(distroKey(1))).get().satisfies(r -> {
      assertThat(r.owner()).isEqualTo("self");
      assertThat(EphemeralInstanceCodec.decode(r.key(), r.value())).isEqualTo(instance(1, 1.0));
    });
    store.register(instance(2, 2.0));
    assertThat(reportedStamps.get(3).revision()).as("above the tombstone").isGreaterThan(reportedStamps.get(2).revision());
  }

  /**
   * The replicator reads a reported key at once (a lone change to an idle peer leaves at once): a
   * report made before the write is readable sent nothing, and the change reached peers only by
   * the next verify, seconds later.
   */
  @Test
  void anOwnWriteIsReadableWhenItIsReported() {
    applyIfNewer(live(instance(1, 1.0), "peer", 10));
    store.beat(key(1));
    store.register(instance(2, 1.0));
    store.register(instance(2, 3.0));
    store.remove(key(2));

    assertThat(reportedStamps).hasSize(4);
    assertThat(readableWhenReported).containsExactlyElementsOf(reportedStamps);
  }

  @Test
  void removeIfForgetsOnlyTheExactRecord() {
    applyIfNewer(live(instance(1, 1.0), "a", 10));
    applyIfNewer(live(instance(2, 1.0), "a", 10));
    store.beat(key(2)); // taken over here before a's grace period ended

    assertThat(home.removeIf(distroKey(1), new RecordStamp("a", 10, false))).isTrue();
    assertThat(home.removeIf(distroKey(2), new RecordStamp("a", 10, false))).isFalse();
    assertThat(index.instance(key(1), true)).isEmpty();
    assertThat(index.instance(key(2), true)).as("owned here now").isPresent();

    applyIfNewer(live(instance(1, 1.0), "b", 20));
    assertThat(home.removeIf(distroKey(1), new RecordStamp("a", 10, false))).isFalse();
    assertThat(store.get(key(1))).get().extracting(EphemeralRecord::ownerNodeId).isEqualTo("b");
  }

  static DistroRecord keptByBeats(Instance i, String owner, long revision) {
    return DistroRecord.live(DistroKeys.instanceKey(i.key()), owner, revision, EphemeralInstanceCodec.encode(i, true));
  }

  /** How an instance is kept alive on its owner travels with it and is listed again by replicas. */
  @Test
  void recordsSayWhetherBeatsOrAClientConnectionKeepTheirInstance() {
    store.register(instance(1, 1.0));
    store.registerForClient(instance(2, 1.0), "client-1");
    applyIfNewer(keptByBeats(instance(3, 1.0), "peer", 10));
    applyIfNewer(live(instance(4, 1.0), "peer", 11));

    assertThat(home.get(distroKey(1)).map(r -> EphemeralInstanceCodec.decodeReplica(r.key(), r.value())))
        .get().extracting(EphemeralInstanceCodec.Replica::keptByBeats).isEqualTo(true);
    assertThat(home.get(distroKey(2)).map(r -> EphemeralInstanceCodec.decodeReplica(r.key(), r.value())))
        .get().extracting(EphemeralInstanceCodec.Replica::keptByBeats).isEqualTo(false);
    assertThat(home.get(distroKey(3))).contains(keptByBeats(instance(3, 1.0), "peer", 10));
    assertThat(home.get(distroKey(4))).contains(live(instance(4, 1.0), "peer", 11));
    assertThat(store.get(key(4)).orElseThrow().connectionOwned()).isTrue();
    assertThat(store.connectionOwners()).as("a replica's connection is not one of this node").isEqualTo(1);
    assertThat(home.outlivesRestart(keptByBeats(instance(5, 1.0), "self", 12))).isTrue();
    assertThat(home.outlivesRestart(live(instance(5, 1.0), "self", 12))).isFalse();
    assertThat(home.outlivesRestart(DistroRecord.tombstone(distroKey(5), "self", 13))).isFalse();
  }

  /** After a restart, an own instance kept by beats comes back from a peer's snapshot as it was. */
  @Test
  void anOwnInstanceKeptByBeatsIsTakenBackWithItsBeatsTimedFromNow() {
    clock.advance(java.time.Duration.ofMinutes(5));

    assertThat(applyIfNewer(keptByBeats(instance(1, 2.0), "self", 10))).isEqualTo(new RecordHome.Stored(true, null));

    EphemeralRecord r = store.get(key(1)).orElseThrow();
    assertThat(r.ownerNodeId()).isEqualTo("self");
    assertThat(r.revision()).isEqualTo(10);
    assertThat(r.lastBeatMillis()).isEqualTo(clock.millis());
    assertThat(r.connectionOwned()).isFalse();
    assertThat(index.instance(key(1), true)).contains(instance(1, 2.0));
    assertThat(reported).as("the peers hold it already").isEmpty();
    assertThat(home.get(distroKey(1))).contains(keptByBeats(instance(1, 2.0), "self", 10));
  }

  @Test
  void listingsEncodeWhatIsHeldTombstonesIncluded() {
    applyIfNewer(live(instance(1, 1.0), "a", 10));
    applyIfNewer(DistroRecord.tombstone(distroKey(2), "a", 11));
    store.register(instance(3, 1.0));

    assertThat(home.records(s -> s.owner().equals("a")))
        .containsExactlyInAnyOrder(live(instance(1, 1.0), "a", 10), DistroRecord.tombstone(distroKey(2), "a", 11));
    List<String> keys = new ArrayList<>();
    home.forEachStamp((k, s) -> keys.add(k));
    assertThat(keys).containsExactlyInAnyOrder(distroKey(1), distroKey(2), distroKey(3));
  }

  static DistroRecord health(int port, boolean healthy, String owner, long revision) {
    return DistroRecord.live(DistroKeys.healthKey(key(port)), owner, revision,
        PersistentHealthCodec.encode(key(port), healthy, 0));
  }

  @Test
  void healthRecordsGoToPersistentInstancesAndNeverToTheStore() {
    index.putPersistent(new Instance(key(1), 1.0, true, true, false, Map.of()));

    applier.apply(List.of(health(1, false, "peer", 10), health(2, false, "peer", 10),
        DistroRecord.live("nonsense", "peer", 9, new byte[] {1})));

    assertThat(index.instance(key(1), false)).get().extracting(Instance::healthy).isEqualTo(false);
    assertThat(index.instance(key(2), false)).as("health never creates an instance").isEmpty();
    assertThat(store.records()).isEmpty();
  }

  @Test
  void aTombstoneOrARemovedHealthRecordKeepsTheLastKnownHealth() {
    index.putPersistent(new Instance(key(1), 1.0, true, true, false, Map.of()));
    index.putPersistent(new Instance(key(2), 1.0, true, true, false, Map.of()));
    applier.apply(List.of(health(1, false, "peer", 10), health(2, false, "peer", 10)));

    applier.apply(List.of(DistroRecord.tombstone(DistroKeys.healthKey(key(1)), "peer", 11)));
    applier.remove(List.of(health(2, false, "peer", 10)));

    assertThat(index.instance(key(1), false)).get().extracting(Instance::healthy).isEqualTo(false);
    assertThat(index.instance(key(2), false)).get().extracting(Instance::healthy).isEqualTo(false);
    assertThat(store.records()).isEmpty();
  }
}
