package dev.nacre.naming.distro;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.consensus.distro.DistroRecord;
import dev.nacre.naming.ephemeral.EphemeralRecord;
import dev.nacre.naming.ephemeral.EphemeralStore;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.registry.RegistryIndex;
import dev.nacre.naming.support.MutableClock;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The handler side alone, driven directly: what peers' records do to the store and index. */
@Timeout(10)
class ReplicaApplierTest {
  static final ServiceKey SERVICE = new ServiceKey("public", "DEFAULT_GROUP", "orders");
  final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  final RegistryIndex index = new RegistryIndex();
  final EphemeralStore store = new EphemeralStore("self", clock, index);
  final List<InstanceKey> localChanges = new ArrayList<>();
  final ReplicaApplier applier = new ReplicaApplier(store);

  {
    store.addListener((key, record) -> localChanges.add(key));
  }

  static InstanceKey key(int port) {
    return new InstanceKey(SERVICE, "DEFAULT", "10.0.0.1", port);
  }

  static Instance instance(int port, double weight) {
    return new Instance(key(port), weight, true, true, true, Map.of("v", String.valueOf(weight)));
  }

  static DistroRecord live(Instance i, String owner, long revision) {
    return DistroRecord.live(DistroKeys.instanceKey(i.key()), owner, revision, EphemeralInstanceCodec.encode(i));
  }

  @Test
  void peerRecordsBecomeReplicasWithoutEcho() {
    applier.apply(List.of(live(instance(1, 2.0), "peer", 10)));
    assertThat(index.instance(key(1), true)).contains(instance(1, 2.0));
    EphemeralRecord held = store.get(key(1)).orElseThrow();
    assertThat(held.ownerNodeId()).isEqualTo("peer");
    assertThat(store.ownsLocally(key(1))).isFalse();

    applier.apply(List.of(DistroRecord.tombstone(DistroKeys.instanceKey(key(1)), "peer", 11)));
    assertThat(index.instance(key(1), true)).isEmpty();
    assertThat(localChanges).as("replica changes are not reported as local ones").isEmpty();
  }

  @Test
  void garbageInABatchIsSkippedAndTheRestApplied() {
    applier.apply(List.of(
        DistroRecord.live("not-a-key", "peer", 5, new byte[] {1, 2}),
        DistroRecord.live(DistroKeys.instanceKey(key(2)), "peer", 5, "junk".getBytes(StandardCharsets.UTF_8)),
        DistroRecord.tombstone("ephemeral:broken", "peer", 6),
        live(instance(3, 1.0), "peer", 7)));
    assertThat(store.records()).extracting(EphemeralRecord::key).containsExactly(key(3));
    applier.remove(List.of(DistroRecord.live("nonsense", "peer", 9, new byte[0])));
    assertThat(store.records()).hasSize(1);
  }

  @Test
  void removeOnlyDropsTheSameOwnersReplica() {
    applier.apply(List.of(live(instance(1, 1.0), "a", 10), live(instance(2, 1.0), "a", 10)));
    store.beat(key(2)); // taken over here before a's grace period ended
    localChanges.clear();

    applier.remove(List.of(live(instance(1, 1.0), "a", 10), live(instance(2, 1.0), "a", 10)));

    assertThat(index.instance(key(1), true)).isEmpty();
    assertThat(index.instance(key(2), true)).as("owned here now").isPresent();
    assertThat(store.ownsLocally(key(2))).isTrue();

    applier.apply(List.of(live(instance(1, 1.0), "b", 20)));
    applier.remove(List.of(live(instance(1, 1.0), "a", 10)));
    assertThat(store.get(key(1))).as("b's newer record is not a's to remove")
        .get().extracting(EphemeralRecord::ownerNodeId).isEqualTo("b");
    assertThat(localChanges).isEmpty();
  }

  @Test
  void aPeersNewerRecordOfAnOwnedInstanceMakesItAReplica() {
    store.register(instance(1, 1.0));
    assertThat(store.ownsLocally(key(1))).isTrue();

    applier.apply(List.of(live(instance(1, 4.0), "peer", 99)));

    assertThat(store.ownsLocally(key(1))).isFalse();
    assertThat(index.instance(key(1), true)).contains(instance(1, 4.0));
    EphemeralRecord replica = store.get(key(1)).orElseThrow();
    clock.advance(java.time.Duration.ofHours(1));
    assertThat(store.markUnhealthy(replica)).as("only the owner decides health").isFalse();
    assertThat(store.expire(replica)).as("only the owner expires").isFalse();
    assertThat(index.instance(key(1), true)).contains(instance(1, 4.0));
  }

  @Test
  void ownRecordsHandedBackAreIgnored() {
    store.register(instance(1, 1.0));
    applier.apply(List.of(live(instance(1, 7.0), "self", 99),
        DistroRecord.tombstone(DistroKeys.instanceKey(key(1)), "self", 100)));
    assertThat(index.instance(key(1), true)).contains(instance(1, 1.0));
  }

  static DistroRecord health(int port, boolean healthy, String owner, long revision) {
    return DistroRecord.live(DistroKeys.healthKey(key(port)), owner, revision,
        PersistentHealthCodec.encode(key(port), healthy, 0));
  }

  @Test
  void healthRecordsGoToPersistentInstancesAndNeverToTheStore() {
    index.putPersistent(new Instance(key(1), 1.0, true, true, false, Map.of()));

    applier.apply(List.of(health(1, false, "peer", 10), health(2, false, "peer", 10)));

    assertThat(index.instance(key(1), false)).get().extracting(Instance::healthy).isEqualTo(false);
    assertThat(index.instance(key(2), false)).as("health never creates an instance").isEmpty();
    assertThat(store.records()).isEmpty();
    assertThat(localChanges).isEmpty();
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

  /**
   * The race the periodic reconcile used to find, repaired when replication ranks the own write:
   * a peer's record reached the store while this member's newer write was queued.
   */
  @Test
  void anOwnWriteRankedAboveAPeerRecordThatOvertookItMakesThisMemberTheOwnerAgain() {
    store.register(instance(1, 1.0)); // the own write, queued for the replicator
    applier.apply(List.of(live(instance(1, 3.0), "peer", 10))); // the peer's record overtakes it
    assertThat(store.ownsLocally(key(1))).isFalse();
    localChanges.clear();

    applier.ownWritesStored(List.of(live(instance(1, 1.0), "self", 11)));

    assertThat(store.ownsLocally(key(1))).as("this member checks it again").isTrue();
    assertThat(localChanges).as("and publishes it again, so peers hold what it holds").containsExactly(key(1));
  }

  @Test
  void anOwnRemovalRankedAboveAPeerRecordThatOvertookItRemovesTheReplica() {
    applier.apply(List.of(live(instance(2, 3.0), "peer", 10)));
    applier.ownWritesStored(List.of(DistroRecord.tombstone(DistroKeys.instanceKey(key(2)), "self", 11)));
    assertThat(store.get(key(2))).isEmpty();
    assertThat(index.instance(key(2), true)).isEmpty();
  }

  @Test
  void ownWritesThatTheStoreAgreesWithChangeNothing() {
    store.register(instance(3, 1.0));
    localChanges.clear();
    applier.ownWritesStored(List.of(live(instance(3, 1.0), "self", 5),
        DistroRecord.tombstone(DistroKeys.instanceKey(key(4)), "self", 6)));
    assertThat(store.ownsLocally(key(3))).isTrue();
    assertThat(store.get(key(4))).isEmpty();
    assertThat(localChanges).isEmpty();
  }
}
