package dev.nacre.naming.distro;

import static dev.nacre.naming.distro.ReplicatedCluster.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.consensus.distro.DistroBatch;
import dev.nacre.consensus.distro.DistroRecord;
import dev.nacre.consensus.distro.DistroReplicator;
import dev.nacre.naming.ephemeral.EphemeralStore;
import dev.nacre.naming.model.Beat;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.registry.RegistryIndex;
import dev.nacre.naming.support.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Members with their own registry and a real Distro replicator, wired in memory. */
@Timeout(30)
class EphemeralReplicationClusterTest {
  static final ServiceKey SERVICE = new ServiceKey("public", "DEFAULT_GROUP", "orders");
  static final Duration FAR = Duration.ofHours(1);

  @RegisterExtension final ReplicatedCluster cluster = new ReplicatedCluster();

  static InstanceKey key(int port) {
    return new InstanceKey(SERVICE, "DEFAULT", "10.0.0.1", port);
  }

  static Instance instance(int port) {
    return new Instance(key(port), 1.0, true, true, true, Map.of());
  }

  /** Starts {@code size} members and registers the instances on {@code ports} at a, which it returns. */
  ReplicatedMember startAndRegisterAtA(int size, int... ports) {
    cluster.start(size);
    ReplicatedMember a = cluster.member("a");
    for (int port : ports) {
      a.ops.registerInstance(instance(port));
    }
    return a;
  }

  static Beat beat(int port) {
    return new Beat(key(port), Optional.empty());
  }

  @ParameterizedTest(name = "{0} members")
  @ValueSource(ints = {2, 3})
  @Timeout(30)
  void registrationUpdateAndDeregistrationReachEveryMember(int size) {
    ReplicatedMember a = startAndRegisterAtA(size, 1);
    eventually(() -> cluster.members().forEach(m -> {
      assertThat(m.instance(key(1))).as("on %s", m.id).contains(instance(1));
      assertThat(m.ownerOf(key(1))).as("owner seen by %s", m.id).contains("a");
    }));

    // The client registers again with new values (operators' edits go through the log instead).
    Instance changed = new Instance(key(1), 7.5, true, false, true, Map.of("zone", "eu-1", "v", "2"));
    a.ops.registerInstance(changed);
    eventually(() -> cluster.members().forEach(m -> assertThat(m.instance(key(1))).as("on %s", m.id).contains(changed)));

    a.ops.registerInstance(new Instance(key(1), 2.0, true, true, true, Map.of("zone", "eu-1", "v", "2")));
    eventually(() -> cluster.members().forEach(m -> assertThat(m.instance(key(1))).as("on %s", m.id)
        .get().satisfies(i -> assertThat(i.weight()).isEqualTo(2.0)).satisfies(i -> assertThat(i.enabled()).isTrue())));
    cluster.members().forEach(m -> assertThat(m.ops.listInstances(SERVICE, Set.of(), false, false).hosts())
        .as("listed on %s", m.id).hasSize(1));

    a.ops.deregisterInstance(key(1), true);
    eventually(() -> cluster.members().forEach(m -> {
      assertThat(m.instance(key(1))).as("on %s", m.id).isEmpty();
      assertThat(m.store.records()).as("store of %s", m.id).isEmpty();
    }));
  }

  @Test
  void ownersHealthChangesAndExpiryPropagate() {
    ReplicatedMember a = startAndRegisterAtA(3, 1);
    eventually(() -> assertThat(cluster.member("c").instance(key(1))).isPresent());

    a.clock.advance(Duration.ofSeconds(16));
    a.checker.checkOnce();
    eventually(() -> cluster.members().forEach(m ->
        assertThat(m.instance(key(1))).as("on %s", m.id).get().extracting(Instance::healthy).isEqualTo(false)));

    a.ops.beat(beat(1));
    eventually(() -> cluster.members().forEach(m ->
        assertThat(m.instance(key(1))).as("on %s", m.id).get().extracting(Instance::healthy).isEqualTo(true)));

    a.clock.advance(Duration.ofSeconds(31));
    a.checker.checkOnce();
    eventually(() -> cluster.members().forEach(m -> assertThat(m.instance(key(1))).as("on %s", m.id).isEmpty()));
  }

  @Test
  void aReplicaIsNeverCheckedByItsHolder() {
    ReplicatedMember a = startAndRegisterAtA(2, 1);
    ReplicatedMember b = cluster.member("b");
    eventually(() -> assertThat(b.instance(key(1))).isPresent());

    b.clock.advance(FAR);
    b.checker.checkOnce();
    a.ops.beat(beat(1)); // the owner keeps it alive on its own clock
    a.checker.checkOnce();
    b.checker.checkOnce();

    assertThat(b.instance(key(1))).get().extracting(Instance::healthy).isEqualTo(true);
    assertThat(b.store.ownsLocally(key(1))).isFalse();
    assertThat(a.store.ownsLocally(key(1))).isTrue();
    a.ops.registerInstance(new Instance(key(1), 3.0, true, true, true, Map.of()));
    eventually(() -> assertThat(b.instance(key(1))).get().extracting(Instance::weight).isEqualTo(3.0));
  }

  @Test
  void reRegistrationOnAnotherMemberMovesOwnershipAwayFromALiveOwner() {
    ReplicatedMember a = startAndRegisterAtA(3, 1);
    ReplicatedMember b = cluster.member("b");
    eventually(() -> assertThat(b.instance(key(1))).isPresent());

    Instance moved = new Instance(key(1), 2.0, true, true, true, Map.of("moved", "yes"));
    b.ops.registerInstance(moved);
    eventually(() -> cluster.members().forEach(m -> {
      assertThat(m.ownerOf(key(1))).as("owner seen by %s", m.id).contains("b");
      assertThat(m.instance(key(1))).as("on %s", m.id).contains(moved);
    }));
    assertThat(a.store.ownsLocally(key(1))).isFalse();

    a.clock.advance(FAR);
    a.checker.checkOnce();
    assertThat(a.instance(key(1))).as("the former owner no longer expires it").contains(moved);
    assertThat(a.replicator().liveRecords().join().values())
        .as("the former owner published nothing since").allSatisfy(r -> assertThat(r.owner()).isEqualTo("b"));

    b.clock.advance(FAR);
    b.checker.checkOnce();
    eventually(() -> cluster.members().forEach(m -> assertThat(m.instance(key(1))).as("on %s", m.id).isEmpty()));
  }

  @Test
  void aDeadOwnersInstancesGoAfterTheGracePeriodUnlessABeatReownedThem() {
    ReplicatedMember a = startAndRegisterAtA(3, 1, 2);
    eventually(() -> cluster.members().forEach(m ->
        assertThat(m.store.records()).as("on %s", m.id).hasSize(2)));

    cluster.crash("a");
    ReplicatedMember b = cluster.member("b");
    ReplicatedMember c = cluster.member("c");
    assertThat(b.ops.beat(beat(1)).found()).isTrue();
    assertThat(b.store.ownsLocally(key(1))).as("the beat made b the owner").isTrue();

    eventually(() -> {
      assertThat(b.instance(key(2))).as("a's un-beaten instance on b").isEmpty();
      assertThat(c.instance(key(2))).as("a's un-beaten instance on c").isEmpty();
    });
    eventually(() -> List.of(b, c).forEach(m -> {
      assertThat(m.instance(key(1))).as("re-owned instance on %s", m.id).isPresent();
      assertThat(m.ownerOf(key(1))).as("owner seen by %s", m.id).contains("b");
    }));

    b.clock.advance(FAR);
    b.checker.checkOnce();
    eventually(() -> assertThat(c.instance(key(1))).as("b checks it now").isEmpty());
  }

  @Test
  void aRestartedOwnerLoadsEverythingAndTakesItsServiceBack() {
    cluster.start(3);
    cluster.member("a").ops.registerInstance(instance(1));
    cluster.member("c").ops.registerInstance(instance(3));
    eventually(() -> cluster.members().forEach(m ->
        assertThat(m.store.records()).as("on %s", m.id).hasSize(2)));

    cluster.crash("a");
    ReplicatedMember b = cluster.member("b");
    ReplicatedMember c = cluster.member("c");
    b.ops.beat(beat(1));
    eventually(() -> assertThat(c.ownerOf(key(1))).contains("b"));

    ReplicatedMember a = cluster.restart("a");
    assertThat(a.store.records()).as("loaded before ready").hasSize(2);
    assertThat(a.ownerOf(key(1))).contains("b");
    assertThat(a.ownerOf(key(3))).contains("c");

    a.ops.beat(beat(1)); // the mapper picks a again for this service
    assertThat(a.store.ownsLocally(key(1))).isTrue();
    eventually(() -> List.of(b, c).forEach(m ->
        assertThat(m.ownerOf(key(1))).as("owner seen by %s", m.id).contains("a")));
    assertThat(b.store.ownsLocally(key(1))).isFalse();

    b.clock.advance(FAR);
    b.checker.checkOnce();
    assertThat(b.instance(key(1))).as("b stopped checking it").isPresent();
    a.ops.deregisterInstance(key(1), true);
    eventually(() -> cluster.members().forEach(m -> assertThat(m.instance(key(1))).as("on %s", m.id).isEmpty()));
    assertThat(cluster.members()).allSatisfy(m -> assertThat(m.instance(key(3))).isPresent());
  }

  @Test
  void unreadableRecordsFromAPeerAreSkippedAndReplicationGoesOn() throws Exception {
    cluster.start(2);
    ReplicatedMember b = cluster.member("b");
    long revision = System.currentTimeMillis() * 1000 + 1_000_000;
    DistroRecord garbage = DistroRecord.live(DistroKeys.instanceKey(key(8)), "a", revision, new byte[] {(byte) 0xff, 1});
    DistroRecord badKey = DistroRecord.live("ephemeral:not:a:key", "a", revision, new byte[] {1});
    DistroRecord good = DistroRecord.live(DistroKeys.instanceKey(key(9)), "a", revision,
        EphemeralInstanceCodec.encode(instance(9)));

    b.replicator().receiveBatch(new DistroBatch("a", 1, List.of(garbage, badKey, good), Optional.empty()))
        .get();

    assertThat(b.instance(key(9))).contains(instance(9));
    assertThat(b.instance(key(8))).isEmpty();
    cluster.member("a").ops.registerInstance(instance(1));
    eventually(() -> assertThat(b.instance(key(1))).isPresent());
  }

  @Test
  void attachingPublishesWhatTheStoreAlreadyOwnsAndChecksTheMemberId() {
    cluster.start(1);
    ReplicatedMember a = cluster.member("a");
    RegistryIndex index = new RegistryIndex();
    EphemeralStore early = new EphemeralStore("z", new MutableClock(Instant.EPOCH), index);
    early.register(instance(5));

    assertThatThrownBy(() -> EphemeralReplication.create(early,
        (h, home) -> new DistroReplicator("y", List.of("y"), ReplicatedCluster.FAST, cluster.network.transportOf("y"), h,
            home, System::currentTimeMillis)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'y'").hasMessageContaining("'z'");

    EphemeralReplication z = EphemeralReplication.create(early,
        (h, home) -> new DistroReplicator("z", List.of("a", "z"), ReplicatedCluster.FAST, cluster.network.transportOf("z"), h,
            home, System::currentTimeMillis));
    try {
      cluster.network.attach(z.replicator());
      a.replicator().memberUp("z");
      z.replicator().start();
      eventually(() -> assertThat(a.instance(key(5))).isPresent());
      assertThat(a.ownerOf(key(5))).contains("z");
    } finally {
      z.close();
    }
  }

  @Test
  void everyMembersReplicatorListsWhatItsStoreHolds() {
    cluster.start(3);
    cluster.member("a").ops.registerInstance(instance(1));
    cluster.member("b").ops.registerInstance(instance(2));
    cluster.member("b").ops.deregisterInstance(key(2), true);
    cluster.member("c").ops.registerInstance(instance(3));
    eventually(() -> cluster.members().forEach(m -> assertThat(m.store.records()).hasSize(2)));
    for (ReplicatedMember m : cluster.members()) {
      assertThat(m.replicator().liveRecords().join().keySet()).as("on %s", m.id)
          .containsExactlyInAnyOrder(DistroKeys.instanceKey(key(1)), DistroKeys.instanceKey(key(3)));
      assertThat(m.replicator().status().join().records()).as("a tombstone is held on %s", m.id).isEqualTo(3);
    }
  }
}
