package dev.nacre.naming.persistent;

import dev.nacre.naming.support.NamingMachine;
import static dev.nacre.naming.support.NamingFixture.SERVICE;
import static dev.nacre.naming.support.NamingFixture.instance;
import static dev.nacre.naming.support.NamingFixture.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.consensus.raft.OperationRejectedException;
import dev.nacre.consensus.raft.Outcome;
import dev.nacre.naming.model.ClusterInfo;
import dev.nacre.naming.model.HealthCheckType;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.Namespace;
import dev.nacre.naming.model.Records;
import dev.nacre.naming.model.ServiceInfo;
import dev.nacre.naming.registry.RegistryIndex;
import dev.nacre.naming.support.NamingFixture;
import dev.nacre.proto.naming.NamingOperation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class NamingStateMachineTest {
  @TempDir Path dir;

  static final ServiceInfo INFO = new ServiceInfo(SERVICE, 0.4f, Map.of("k", "v"), ServiceInfo.NO_SELECTOR);
  static final ClusterInfo CLUSTER =
      new ClusterInfo(SERVICE, "DEFAULT", HealthCheckType.HTTP, "/ready", 9000, false, Map.of("c", "1"));
  static final Namespace DEV = new Namespace("dev", "Development", "for developers");

  /** Writes one of each persistent record and one ephemeral instance through the operations. */
  private static List<byte[]> populate(NamingFixture f) {
    f.ops.createNamespace(DEV);
    f.ops.createService(INFO);
    f.ops.updateCluster(CLUSTER);
    f.ops.registerInstance(new Instance(key("10.0.0.1", 80), 2, true, true, false, Map.of("m", "1")));
    f.ops.registerInstance(instance("10.0.0.2", 80, false));
    f.ops.registerInstance(instance("10.0.0.3", 80, true));
    return f.log.entries();
  }

  private static void assertPersistentStateRestored(RegistryIndex index) {
    assertThat(index.namespace("dev")).contains(DEV);
    var service = index.service(SERVICE).orElseThrow();
    assertThat(service.explicitInfo()).contains(INFO);
    assertThat(service.cluster("DEFAULT")).isEqualTo(CLUSTER);
    assertThat(service.instances()).extracting(i -> i.key().ip()).containsExactly("10.0.0.1", "10.0.0.2");
    assertThat(service.instances()).noneMatch(Instance::ephemeral);
    assertThat(index.instance(key("10.0.0.1", 80)).orElseThrow().metadata()).containsEntry("m", "1");
  }

  @Test
  void restartRestoresPersistentStateButNoEphemeral() {
    Path db = dir.resolve("db");
    try (NamingFixture f = new NamingFixture(db)) {
      populate(f);
      assertThat(f.stateMachine.lastAppliedIndex()).isEqualTo(5);
    }
    try (NamingFixture restarted = new NamingFixture(db)) {
      assertThat(restarted.stateMachine.lastAppliedIndex()).isEqualTo(5);
      assertPersistentStateRestored(restarted.index);
      assertThat(restarted.index.instance(key("10.0.0.3", 80))).isEmpty();
    }
  }

  @Test
  void replayedEntriesAreNotAppliedTwice() {
    Path db = dir.resolve("db");
    List<byte[]> entries;
    try (NamingFixture f = new NamingFixture(db)) {
      entries = populate(f);
      f.ops.deregisterInstance(key("10.0.0.2", 80), false); // index 6
      entries = f.log.entries();
    }
    RegistryIndex index = new RegistryIndex();
    try (NamingMachine sm = NamingMachine.open(db, index)) {
      // Ratis may replay the log from the start after a restart: entry 5 re-adds 10.0.0.2,
      // which a double apply would resurrect although entry 6 removed it.
      for (int i = 0; i < entries.size(); i++) {
        applyOne(sm, i + 1, entries.get(i));
      }
      assertThat(index.service(SERVICE).orElseThrow().instances())
          .extracting(inst -> inst.key().ip()).containsExactly("10.0.0.1");
      assertThat(sm.lastAppliedIndex()).isEqualTo(6);
    }
  }

  @Test
  void reapplyingTheSamePutAtNewIndexesKeepsOneInstance() {
    RegistryIndex index = new RegistryIndex();
    byte[] put = NamingOperation.newBuilder()
        .setPutInstance(Records.toRecord(instance("10.0.0.1", 80, false))).build().toByteArray();
    try (NamingMachine sm = NamingMachine.open(dir.resolve("db"), index)) {
      applyOne(sm, 1, put);
      applyOne(sm, 2, put);
      assertThat(index.service(SERVICE).orElseThrow().instances()).hasSize(1);
    }
    RegistryIndex reloaded = new RegistryIndex();
    NamingMachine.open(dir.resolve("db"), reloaded).close();
    assertThat(reloaded.service(SERVICE).orElseThrow().instances()).hasSize(1);
  }

  @Test
  void refusedOperationsConsumeTheirIndexAndChangeNothing() {
    RegistryIndex index = new RegistryIndex();
    try (NamingMachine sm = NamingMachine.open(dir.resolve("db"), index)) {
      sm.setCurrentTerm(3);
      byte[] create = NamingOperation.newBuilder().setCreateService(Records.toRecord(INFO)).build().toByteArray();
      applyOne(sm, 1, create);
      assertThatThrownBy(() -> applyOne(sm, 2, create))
          .isInstanceOf(OperationRejectedException.class).hasMessageContaining("already exists");
      assertThat(sm.lastAppliedIndex()).isEqualTo(2);
      assertThat(sm.lastAppliedTerm()).isEqualTo(3);
      assertThatThrownBy(() -> applyOne(sm, 3, new byte[] {(byte) 0xff, 1, 2}))
          .isInstanceOf(OperationRejectedException.class);
      assertThatThrownBy(() -> applyOne(sm, 4, NamingOperation.newBuilder().setRemoveNamespace("public").build().toByteArray()))
          .isInstanceOf(OperationRejectedException.class).hasMessageContaining("cannot be deleted");
      assertThat(sm.lastAppliedIndex()).isEqualTo(4);
      assertThat(index.service(SERVICE).orElseThrow().explicitInfo()).contains(INFO);
    }
  }

  @Test
  void operationsOfOneEntrySeeEachOtherAndCommitTogetherWithItsIndex() {
    RegistryIndex index = new RegistryIndex();
    byte[] createDev = NamingOperation.newBuilder().setCreateNamespace(Records.toRecord(DEV)).build().toByteArray();
    byte[] put1 = NamingOperation.newBuilder()
        .setPutInstance(Records.toRecord(instance("10.0.0.1", 80, false))).build().toByteArray();
    byte[] put2 = NamingOperation.newBuilder()
        .setPutInstance(Records.toRecord(instance("10.0.0.2", 80, false))).build().toByteArray();
    List<byte[]> entry = List.of(createDev, put1, createDev, new byte[] {(byte) 0xff}, put2);
    try (NamingMachine sm = NamingMachine.open(dir.resolve("db"), index)) {
      List<Outcome> outcomes = sm.apply(1, entry);
      assertThat(outcomes).extracting(Outcome::isRejected).containsExactly(false, false, true, true, false);
      assertThat(outcomes.get(2).rejection()).contains("already exists");
      assertThat(sm.lastAppliedIndex()).isEqualTo(1);
      // Ratis replays the entry after a restart: nothing is applied twice.
      assertThat(sm.apply(1, entry)).noneMatch(Outcome::isRejected);
      assertThat(index.service(SERVICE).orElseThrow().instances()).hasSize(2);
    }
    RegistryIndex reloaded = new RegistryIndex();
    NamingMachine.open(dir.resolve("db"), reloaded).close();
    assertThat(reloaded.namespace("dev")).contains(DEV);
    assertThat(reloaded.service(SERVICE).orElseThrow().instances())
        .extracting(i -> i.key().ip()).containsExactlyInAnyOrder("10.0.0.1", "10.0.0.2");
  }

  @Test
  void removingAServiceWithPersistentInstancesIsRefusedDeterministically() {
    RegistryIndex index = new RegistryIndex();
    try (NamingMachine sm = NamingMachine.open(dir.resolve("db"), index)) {
      applyOne(sm, 1, NamingOperation.newBuilder().setPutService(Records.toRecord(INFO)).build().toByteArray());
      applyOne(sm, 2, NamingOperation.newBuilder()
          .setPutInstance(Records.toRecord(instance("10.0.0.1", 80, false))).build().toByteArray());
      byte[] remove = NamingOperation.newBuilder().setRemoveService(Records.toProto(SERVICE)).build().toByteArray();
      assertThatThrownBy(() -> applyOne(sm, 3, remove)).hasMessageContaining("is not empty");
      applyOne(sm, 4, NamingOperation.newBuilder().setRemoveInstance(Records.toProto(key("10.0.0.1", 80))).build().toByteArray());
      applyOne(sm, 5, remove);
      assertThat(index.service(SERVICE)).isEmpty();
    }
  }

  @Test
  void snapshotInstallsIntoAFreshFolder() throws Exception {
    Path snapshot = dir.resolve("snap");
    Files.createDirectories(snapshot);
    try (NamingFixture f = new NamingFixture(dir.resolve("a"))) {
      f.stateMachine.setCurrentTerm(2);
      populate(f);
      f.stateMachine.writeSnapshot(snapshot);
      f.ops.registerInstance(instance("10.0.0.9", 80, false)); // after the snapshot: not in it
    }
    try (NamingFixture fresh = new NamingFixture(dir.resolve("b"))) {
      fresh.ops.registerInstance(instance("10.0.0.50", 80, true));
      fresh.ops.registerInstance(instance("10.0.0.60", 80, false)); // replaced by the snapshot
      fresh.stateMachine.installSnapshot(snapshot);

      assertThat(fresh.stateMachine.lastAppliedIndex()).isEqualTo(5);
      assertThat(fresh.stateMachine.lastAppliedTerm()).isEqualTo(2);
      assertThat(fresh.index.namespace("dev")).contains(DEV);
      assertThat(fresh.ops.allInstances(SERVICE)).extracting(i -> i.key().ip())
          .containsExactly("10.0.0.1", "10.0.0.2", "10.0.0.50");
      assertThat(fresh.index.service(SERVICE).orElseThrow().explicitInfo()).contains(INFO);
    }
    try (NamingFixture reopened = new NamingFixture(dir.resolve("b"))) {
      assertPersistentStateRestored(reopened.index);
      assertThat(reopened.ops.listInstances(SERVICE, Set.of(), false, false).hosts()).hasSize(2);
    }
  }

  /** Applies a one-operation entry; a refusal surfaces as the exception a submitter would get. */
  private static byte[] applyOne(NamingMachine sm, long index, byte[] operation) {
    Outcome outcome = sm.apply(index, List.of(operation)).get(0);
    if (outcome.isRejected()) {
      throw new OperationRejectedException(outcome.rejection());
    }
    return outcome.result();
  }
}
