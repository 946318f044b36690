package dev.nacre.naming.distro;

import static dev.nacre.naming.distro.ReplicatedCluster.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.consensus.distro.DistroBatch;
import dev.nacre.consensus.distro.DistroRecord;
import dev.nacre.naming.model.ClusterInfo;
import dev.nacre.naming.model.HealthCheckType;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Probed health of persistent instances spread over Distro: members with their own index and a
 * real replicator, wired in memory. Raft is not here: a persistent write is applied to every
 * member's index by hand, as the state machine would (or to some members only, for a lagging one).
 */
@Timeout(30)
class PersistentHealthReplicationClusterTest {
  static final ServiceKey SERVICE = new ServiceKey("public", "DEFAULT_GROUP", "billing");

  @RegisterExtension final ReplicatedCluster cluster = new ReplicatedCluster();

  static InstanceKey key(int port) {
    return new InstanceKey(SERVICE, "DEFAULT", "10.0.0.2", port);
  }

  static Instance persistent(int port, boolean healthy) {
    return new Instance(key(port), 1.0, healthy, true, false, Map.of());
  }

  /** What applying a committed registration does on each of {@code members}. */
  static void raftApply(Instance instance, List<ReplicatedMember> members) {
    members.forEach(m -> m.index.putPersistent(instance));
  }

  void raftApplyEverywhere(Instance instance) {
    raftApply(instance, cluster.members());
  }

  void assertHealthEverywhere(InstanceKey key, boolean healthy) {
    eventually(() -> cluster.members().forEach(m -> assertThat(m.persistent(key)).as("on %s", m.id)
        .get().extracting(Instance::healthy).isEqualTo(healthy)));
  }

  /**
   * Starts {@code members} members with the healthy instances on {@code ports} applied everywhere,
   * and returns member a, made the responsible prober: the opening of most tests here.
   */
  ReplicatedMember startWithAProbing(int members, int... ports) {
    cluster.start(members);
    for (int port : ports) {
      raftApplyEverywhere(persistent(port, true));
    }
    ReplicatedMember a = cluster.member("a");
    a.responsible = true;
    return a;
  }

  /** {@link #startWithAProbing} with the instance on port 1, which a then finds down, as every member learns. */
  void aFoundPort1Down(int members) {
    probe(startWithAProbing(members, 1), 1, false);
    assertHealthEverywhere(key(1), false);
  }

  /** One probe round of {@code prober} in which the instance on {@code port} answers {@code up}. */
  static void probe(ReplicatedMember prober, int port, boolean up) {
    prober.probeAnswers.put(port, up);
    prober.probeOnce();
  }

  @Test
  void aProbeOnTheResponsibleMemberReachesTheOthersAndAFlipBackToo() {
    ReplicatedMember a = startWithAProbing(3, 1, 2);
    probe(a, 1, false);
    assertHealthEverywhere(key(1), false);
    assertThat(cluster.members()).allSatisfy(m ->
        assertThat(m.persistent(key(2))).get().extracting(Instance::healthy).isEqualTo(true));
    eventually(() -> cluster.members().forEach(m ->
        assertThat(m.healthRecord(key(1))).as("record on %s", m.id).get()
            .extracting(DistroRecord::owner).isEqualTo("a")));

    probe(a, 1, true);
    assertHealthEverywhere(key(1), true);

    probe(a, 1, false);
    assertHealthEverywhere(key(1), false);
  }

  @Test
  void anUnchangedResultIsNotPublishedAgain() {
    ReplicatedMember a = startWithAProbing(2, 1);
    probe(a, 1, false);
    eventually(() -> assertThat(cluster.member("b").healthRecord(key(1))).isPresent());
    long revision = a.healthRecord(key(1)).orElseThrow().revision();

    a.probeOnce();
    a.probeOnce();

    assertThat(a.healthRecord(key(1))).get().extracting(DistroRecord::revision).isEqualTo(revision);
  }

  @Test
  void aRaftUpdateKeepsTheProbedHealthOnEveryMember() {
    aFoundPort1Down(3);

    // An update (weight) carries the health its submitter read; applying it must not undo probes.
    raftApplyEverywhere(new Instance(key(1), 5.0, true, true, false, Map.of()));

    cluster.members().forEach(m -> assertThat(m.persistent(key(1))).as("on %s", m.id).get()
        .satisfies(i -> assertThat(i.weight()).isEqualTo(5.0))
        .extracting(Instance::healthy).isEqualTo(false));
  }

  @Test
  void healthThatArrivesBeforeTheInstanceIsAppliedWhenTheInstanceAppears() {
    ReplicatedMember a = startWithAProbing(3);
    ReplicatedMember b = cluster.member("b");
    ReplicatedMember c = cluster.member("c");
    raftApply(persistent(1, true), List.of(a, c)); // b's Raft apply lags
    probe(a, 1, false);
    eventually(() -> assertThat(b.health().describe(key(1))).contains("false@a"));
    assertThat(b.persistent(key(1))).as("health never creates an instance").isEmpty();

    raftApply(persistent(1, true), List.of(b));

    assertThat(b.persistent(key(1))).get().extracting(Instance::healthy).isEqualTo(false);
  }

  @Test
  void deregisteringRemovesTheHealthRecordEverywhere() {
    ReplicatedMember a = startWithAProbing(3, 1, 2);
    a.probeAnswers.put(1, false);
    a.probeAnswers.put(2, false);
    a.probeOnce();
    eventually(() -> cluster.members().forEach(m ->
        assertThat(m.health().size()).as("records known on %s", m.id).isEqualTo(2)));

    cluster.members().forEach(m -> m.index.remove(key(1), false)); // the deregistration applied

    eventually(() -> cluster.members().forEach(m -> {
      assertThat(m.healthRecord(key(1))).as("record on %s", m.id).isEmpty();
      assertThat(m.health().describe(key(1))).as("known on %s", m.id).isEmpty();
      assertThat(m.healthRecord(key(2))).as("the other record on %s", m.id).isPresent();
    }));
    a.probeOnce();
    assertThat(a.healthRecord(key(1))).as("a deregistered instance is not probed").isEmpty();

    raftApplyEverywhere(persistent(1, true)); // registered again: probed and published afresh
    a.probeOnce();
    assertHealthEverywhere(key(1), false);
  }

  @Test
  void aClusterThatStopsProbingDeletesItsRecordsAndKeepsManualHealth() {
    aFoundPort1Down(2);

    cluster.members().forEach(m -> m.index.putCluster(
        new ClusterInfo(SERVICE, "DEFAULT", HealthCheckType.NONE, "/", 80, true, Map.of())));
    eventually(() -> cluster.members().forEach(m -> assertThat(m.health().size()).as("on %s", m.id).isZero()));
    raftApplyEverywhere(persistent(1, true)); // health set by hand, as NONE clusters allow

    assertHealthEverywhere(key(1), true);
  }

  @Test
  void unknownKeysAndGarbageAreSkippedAndReplicationGoesOn() throws Exception {
    cluster.start(2);
    raftApplyEverywhere(persistent(1, true));
    raftApplyEverywhere(persistent(2, true));
    ReplicatedMember b = cluster.member("b");
    long revision = System.currentTimeMillis() * 1000 + 1_000_000;
    List<DistroRecord> records = List.of(
        DistroRecord.live(DistroKeys.healthKey(key(1)), "a", revision, new byte[] {(byte) 0xff, 1}),
        DistroRecord.live(DistroKeys.healthKey(key(1)) + "x", "a", revision,
            PersistentHealthCodec.encode(key(1), false, 0)),
        DistroRecord.live(DistroKeys.healthKey(key(1)).replace("public", "privat"), "a", revision,
            PersistentHealthCodec.encode(key(1), false, 0)),
        DistroRecord.live("health:not:a:key", "a", revision, new byte[] {1}),
        DistroRecord.live("config:7:dataId", "a", revision, "v".getBytes(StandardCharsets.UTF_8)),
        DistroRecord.tombstone("health:broken", "a", revision),
        DistroRecord.live(DistroKeys.healthKey(key(2)), "a", revision,
            PersistentHealthCodec.encode(key(2), false, 0)));

    b.replicator().receiveBatch(new DistroBatch("a", 1, records, Optional.empty())).get();

    assertThat(b.persistent(key(1))).get().extracting(Instance::healthy).isEqualTo(true);
    assertThat(b.persistent(key(2))).get().extracting(Instance::healthy).isEqualTo(false);
    assertThat(b.health().size()).isEqualTo(1);
    assertThat(b.store.records()).as("no key became an ephemeral instance").isEmpty();
    assertThat(b.index.allServices().stream().mapToLong(s -> s.persistentInstances().size()).sum())
        .as("no record created an instance").isEqualTo(2);

    // (keys 1 and 2 now hold records of a's from the future: a's real writes rank below them)
    raftApplyEverywhere(persistent(3, true));
    ReplicatedMember a = cluster.member("a");
    a.responsible = true;
    probe(a, 3, false);
    assertHealthEverywhere(key(3), false);
  }

  @Test
  void theGracePeriodDropsADeadProbersRecordsButNeitherHealthNorInstances() {
    ReplicatedMember a = startWithAProbing(3, 1, 2);
    probe(a, 1, false);
    eventually(() -> cluster.members().forEach(m -> assertThat(m.health().size()).as("on %s", m.id).isEqualTo(2)));

    cluster.crash("a");
    ReplicatedMember b = cluster.member("b");
    ReplicatedMember c = cluster.member("c");
    eventually(() -> List.of(b, c).forEach(m -> {
      assertThat(m.healthRecord(key(1))).as("record on %s", m.id).isEmpty();
      assertThat(m.health().size()).as("known on %s", m.id).isZero();
    }));

    List.of(b, c).forEach(m -> {
      assertThat(m.persistent(key(1))).as("on %s", m.id).get().extracting(Instance::healthy).isEqualTo(false);
      assertThat(m.persistent(key(2))).as("on %s", m.id).get().extracting(Instance::healthy).isEqualTo(true);
    });
  }

  @Test
  void theNewResponsibleMembersFirstProbeReownsTheRecordEvenWhenItAgrees() {
    aFoundPort1Down(3);

    cluster.crash("a");
    ReplicatedMember b = cluster.member("b");
    ReplicatedMember c = cluster.member("c");
    b.responsible = true;
    probe(b, 1, false);
    eventually(() -> List.of(b, c).forEach(m -> assertThat(m.healthRecord(key(1))).as("record on %s", m.id)
        .get().extracting(DistroRecord::owner).isEqualTo("b")));

    probe(b, 1, true);
    assertHealthEverywhere(key(1), true);
    eventually(() -> assertThat(c.health().describe(key(1))).contains("true@b"));
  }

  @Test
  void aRestartedMemberLoadsKnownHealth() {
    aFoundPort1Down(3);

    cluster.crash("c");
    ReplicatedMember c = cluster.restart("c");
    assertThat(c.health().describe(key(1))).as("loaded before ready").contains("false@a");
    raftApply(persistent(1, true), List.of(c)); // its state machine replays afterwards

    assertThat(c.persistent(key(1))).get().extracting(Instance::healthy).isEqualTo(false);
  }
}
