package dev.nacre.naming.override;

import static dev.nacre.naming.support.NamingFixture.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.ephemeral.EphemeralRecord;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.InstancePatch;
import dev.nacre.naming.operations.OverrideCleaner;
import dev.nacre.naming.support.DirectReplicatedLog;
import dev.nacre.naming.support.NamingFixture;
import dev.nacre.naming.support.NamingFixturePerTest;
import dev.nacre.proto.naming.NamingOperation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.ratis.thirdparty.com.google.protobuf.InvalidProtocolBufferException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Operators' edits of ephemeral instances survive the client's re-registration (its redo). */
@Timeout(30)
@ExtendWith(NamingFixturePerTest.class)
class OperatorOverrideTest {
  static final InstanceKey KEY = key("10.0.0.1", 8080);
  static final Instance REGISTERED = new Instance(KEY, 1.0, true, true, true, Map.of("zone", "a"));

  NamingFixture f;

  private void operatorSetsWeight5Disabled() {
    f.ops.patchInstance(KEY, true,
        new InstancePatch(Optional.of(5.0), Optional.of(false), Optional.empty(), Optional.empty()));
  }

  private Instance shown() {
    return f.ops.getInstance(KEY);
  }

  @Test
  void editGoesThroughTheLogAndSurvivesReRegistration() {
    f.ops.registerInstance(REGISTERED);
    operatorSetsWeight5Disabled();
    assertThat(f.log.entries()).hasSize(1);
    assertThat(op(0).hasPutInstanceOverride()).isTrue();
    assertThat(shown().weight()).isEqualTo(5.0);
    assertThat(shown().enabled()).isFalse();
    assertThat(shown().metadata()).as("fields the operator did not set stay the client's").containsEntry("zone", "a");

    f.ops.registerInstance(REGISTERED); // the redo, same node
    assertThat(shown().weight()).isEqualTo(5.0);
    assertThat(shown().enabled()).isFalse();
    assertThat(f.ephemeral.get(KEY)).get().extracting(r -> r.instance().weight())
        .as("the client's registration itself is kept as sent").isEqualTo(1.0);
  }

  @Test
  void overrideOutlivesAnInstanceThatWentWithoutDeregistering() {
    f.ops.registerInstance(REGISTERED);
    operatorSetsWeight5Disabled();
    EphemeralRecord record = f.ephemeral.get(KEY).orElseThrow();
    assertThat(f.ephemeral.expire(record)).as("gone as a silent client goes").isTrue();
    assertThatThrownBy(this::shown).isInstanceOf(NamingException.class);

    // The client comes back through another member: its record arrives as a replica.
    f.ephemeral.putReplica(REGISTERED, "node-2", 7);
    assertThat(shown().weight()).isEqualTo(5.0);
    assertThat(shown().enabled()).isFalse();
  }

  @Test
  void explicitDeregisterEndsTheOverride() {
    f.ops.registerInstance(REGISTERED);
    operatorSetsWeight5Disabled();
    f.ops.deregisterInstance(KEY, true);
    assertThat(op(1).hasRemoveInstanceOverride()).isTrue();
    assertThat(f.index.overrides().get(KEY)).isEmpty();

    f.ops.registerInstance(REGISTERED);
    assertThat(shown()).isEqualTo(REGISTERED);
    f.ops.deregisterInstance(KEY, true);
    assertThat(f.log.entries()).as("no override, no log entry").hasSize(2);
  }

  @Test
  void patchesMergeAndUpdateReplacesMetadata() {
    f.ops.registerInstance(REGISTERED);
    f.ops.patchInstance(KEY, true, new InstancePatch(Optional.of(3.0), Optional.empty(), Optional.empty(), Optional.empty()));
    f.ops.patchInstance(KEY, true, new InstancePatch(Optional.empty(), Optional.of(false), Optional.empty(), Optional.empty()));
    assertThat(shown().weight()).isEqualTo(3.0);
    assertThat(shown().enabled()).isFalse();

    f.ops.updateInstance(new Instance(KEY, 2.0, true, true, true, Map.of("zone", "b")));
    assertThat(shown()).isEqualTo(new Instance(KEY, 2.0, true, true, true, Map.of("zone", "b")));
    f.ops.registerInstance(REGISTERED);
    assertThat(shown().metadata()).containsExactlyEntriesOf(Map.of("zone", "b"));
  }

  @Test
  void healthStaysTheClients() {
    f.ops.registerInstance(REGISTERED);
    f.ops.patchInstance(KEY, true, new InstancePatch(Optional.of(2.0), Optional.empty(), Optional.of(false), Optional.empty()));
    assertThat(shown().healthy()).isTrue();
    assertThat(shown().weight()).isEqualTo(2.0);
    assertThat(f.ephemeral.markUnhealthy(f.ephemeral.get(KEY).orElseThrow())).isTrue();
    assertThat(shown().healthy()).isFalse();
    assertThat(shown().weight()).as("the override stays over a health change").isEqualTo(2.0);
  }

  @Test
  void persistentInstancesKeepTheirUpdateSemantics() {
    Instance persistent = new Instance(KEY, 1.0, true, true, false, Map.of("zone", "a"));
    f.ops.registerInstance(persistent);
    f.ops.updateInstance(new Instance(KEY, 4.0, true, false, false, Map.of()));
    assertThat(op(1).hasPutInstance()).isTrue();
    assertThat(f.index.overrides().get(KEY)).isEmpty();
    assertThat(shown()).isEqualTo(new Instance(KEY, 4.0, true, false, false, Map.of()));
  }

  @Test
  void overridesAreDurable() {
    f.ops.registerInstance(REGISTERED);
    operatorSetsWeight5Disabled();
    Path db = f.dir;
    f.close();
    f = new NamingFixture(db);
    assertThat(f.index.overrides().get(KEY)).get().satisfies(o -> {
      assertThat(o.weight()).contains(5.0);
      assertThat(o.enabled()).contains(false);
      assertThat(o.metadata()).isEmpty();
    });
    f.ops.registerInstance(REGISTERED);
    assertThat(shown().weight()).isEqualTo(5.0);
  }

  @Test
  void withoutQuorumTheEditFailsAndDeregisterStillWorks() {
    f.ops.registerInstance(REGISTERED);
    operatorSetsWeight5Disabled();
    f.log.setMode(DirectReplicatedLog.Mode.UNAVAILABLE);
    assertThatThrownBy(() -> f.ops.patchInstance(KEY, true,
        new InstancePatch(Optional.of(9.0), Optional.empty(), Optional.empty(), Optional.empty())))
        .isInstanceOfSatisfying(NamingException.class, e -> assertThat(e.kind()).isEqualTo(NamingException.Kind.UNAVAILABLE));
    f.ops.deregisterInstance(KEY, true);
    assertThatThrownBy(this::shown).isInstanceOf(NamingException.class);
    assertThat(f.index.overrides().get(KEY)).as("left to the retention cleanup").isPresent();
  }

  @Test
  void cleanerEndsOverridesOfInstancesAbsentForTheRetention() {
    Duration retention = Duration.ofSeconds(60);
    OverrideCleaner cleaner = new OverrideCleaner(f.index, f.log, retention, f.clock);
    InstanceKey other = key("10.0.0.2", 8080);
    f.ops.registerInstance(REGISTERED);
    f.ops.registerInstance(new Instance(other, 1.0, true, true, true, Map.of()));
    operatorSetsWeight5Disabled();
    f.ops.patchInstance(other, true, new InstancePatch(Optional.of(2.0), Optional.empty(), Optional.empty(), Optional.empty()));
    f.ephemeral.expire(f.ephemeral.get(KEY).orElseThrow());

    assertThat(cleaner.cleanOnce()).isZero();
    f.clock.advance(retention.minusSeconds(1));
    assertThat(cleaner.cleanOnce()).isZero();
    f.ops.registerInstance(REGISTERED); // back in time: the count restarts
    assertThat(cleaner.cleanOnce()).isZero();
    f.ephemeral.expire(f.ephemeral.get(KEY).orElseThrow());
    assertThat(cleaner.cleanOnce()).isZero();
    f.clock.advance(retention);
    assertThat(cleaner.cleanOnce()).isEqualTo(1);
    assertThat(f.index.overrides().get(KEY)).isEmpty();
    assertThat(f.index.overrides().get(other)).as("its instance is present").isPresent();

    f.ops.registerInstance(REGISTERED);
    assertThat(shown()).isEqualTo(REGISTERED);
  }

  @Test
  void cleanerKeepsAnOverrideEditedAfterItDecided() {
    f.ops.registerInstance(REGISTERED);
    operatorSetsWeight5Disabled();
    long decidedOn = f.index.overrides().get(KEY).orElseThrow().revision();
    f.ops.patchInstance(KEY, true, new InstancePatch(Optional.of(6.0), Optional.empty(), Optional.empty(), Optional.empty()));
    f.log.submit(NamingOperation.newBuilder().setRemoveInstanceOverride(
        dev.nacre.proto.naming.RemoveInstanceOverride.newBuilder()
            .setId(dev.nacre.naming.model.Records.toProto(KEY)).setIfRevision(decidedOn)).build().toByteArray()).join();
    assertThat(shown().weight()).isEqualTo(6.0);
  }

  @Test
  void aSnapshotCarriesOverridesAndLaysThemOverInstancesHeldThere(@TempDir Path dir) throws Exception {
    Path snapshot = dir.resolve("snap");
    java.nio.file.Files.createDirectories(snapshot);
    f.ops.registerInstance(REGISTERED);
    operatorSetsWeight5Disabled();
    f.stateMachine.writeSnapshot(snapshot);
    try (NamingFixture fresh = new NamingFixture(dir.resolve("fresh"))) {
      fresh.ephemeral.putReplica(REGISTERED, "node-2", 1);
      InstanceKey other = key("10.0.0.3", 80);
      fresh.ops.registerInstance(new Instance(other, 1.0, true, true, true, Map.of()));
      fresh.ops.patchInstance(other, true, new InstancePatch(Optional.of(9.0), Optional.empty(), Optional.empty(), Optional.empty()));
      assertThat(fresh.ops.getInstance(KEY).weight()).isEqualTo(1.0);

      fresh.stateMachine.installSnapshot(snapshot);
      assertThat(fresh.ops.getInstance(KEY).weight()).isEqualTo(5.0);
      assertThat(fresh.ops.getInstance(KEY).enabled()).isFalse();
      assertThat(fresh.ops.getInstance(other).weight()).as("an override the snapshot lacks is gone").isEqualTo(1.0);
    }
  }

  private NamingOperation op(int i) {
    try {
      return NamingOperation.parseFrom(f.log.entries().get(i));
    } catch (InvalidProtocolBufferException e) {
      throw new AssertionError(e);
    }
  }
}
