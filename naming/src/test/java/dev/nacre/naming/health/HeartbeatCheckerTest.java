package dev.nacre.naming.health;

import static dev.nacre.naming.support.NamingFixture.SERVICE;
import static dev.nacre.naming.support.NamingFixture.instance;
import static dev.nacre.naming.support.NamingFixture.key;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.naming.model.Beat;
import dev.nacre.naming.model.BeatResult;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.support.NamingFixture;
import dev.nacre.naming.support.NamingFixturePerTest;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

@Timeout(30)
@ExtendWith(NamingFixturePerTest.class)
class HeartbeatCheckerTest {
  NamingFixture f;
  HeartbeatChecker checker;
  final InstanceKey key = key("10.0.0.1", 8080);

  @BeforeEach
  void setUp() {
    checker = new HeartbeatChecker(f.ephemeral, f.config, f.clock);
  }

  /** How far this test's clock has moved, in milliseconds. */
  long elapsedMillis;

  /** Moves the clock to {@code millisSinceStart} and runs one check. */
  private void at(long millisSinceStart) {
    f.clock.advance(Duration.ofMillis(millisSinceStart - elapsedMillis));
    elapsedMillis = millisSinceStart;
    checker.checkOnce();
  }

  private Optional<Instance> current() {
    return f.index.instance(key, true);
  }

  @Test
  void unhealthyAfter15sRemovedAfter30s() {
    f.ops.registerInstance(instance("10.0.0.1", 8080, true));
    at(15_000);
    assertThat(current()).get().extracting(Instance::healthy).isEqualTo(true);
    at(15_001);
    assertThat(current()).get().extracting(Instance::healthy).isEqualTo(false);
    assertThat(f.ops.listInstances(SERVICE, Set.of(), false, false).hosts())
        .as("still listed while unhealthy").hasSize(1);
    at(30_000);
    assertThat(current()).isPresent();
    at(30_001);
    assertThat(current()).isEmpty();
    assertThat(f.ephemeral.records()).isEmpty();
  }

  @Test
  void beatsKeepItHealthy() {
    f.ops.registerInstance(instance("10.0.0.1", 8080, true));
    for (long s = 5_000; s <= 60_000; s += 5_000) {
      at(s);
      assertThat(f.ops.beat(new Beat(key, Optional.empty())).found()).isTrue();
    }
    assertThat(current()).get().extracting(Instance::healthy).isEqualTo(true);
  }

  @Test
  void aBeatRevivesAnUnhealthyInstance() {
    f.ops.registerInstance(instance("10.0.0.1", 8080, true));
    at(20_000);
    assertThat(current()).get().extracting(Instance::healthy).isEqualTo(false);
    BeatResult result = f.ops.beat(new Beat(key, Optional.empty()));
    assertThat(result.found()).isTrue();
    assertThat(current()).get().extracting(Instance::healthy).isEqualTo(true);
    at(34_000);
    assertThat(current()).as("the beat reset the clock").get().extracting(Instance::healthy).isEqualTo(true);
  }

  @Test
  void preservedMetadataOverridesTimeouts() {
    f.ops.registerInstance(new Instance(key, 1, true, true, true, Map.of(
        Instance.HEART_BEAT_INTERVAL, "1000",
        Instance.HEART_BEAT_TIMEOUT, "3000",
        Instance.IP_DELETE_TIMEOUT, "6000")));
    assertThat(f.ops.beat(new Beat(key, Optional.empty())).clientBeatIntervalMillis()).isEqualTo(1000);
    at(3_001);
    assertThat(current()).get().extracting(Instance::healthy).isEqualTo(false);
    at(6_001);
    assertThat(current()).isEmpty();
  }

  @Test
  void defaultClientBeatIntervalIs5s() {
    f.ops.registerInstance(instance("10.0.0.1", 8080, true));
    assertThat(f.ops.beat(new Beat(key, Optional.empty())).clientBeatIntervalMillis()).isEqualTo(5000);
  }

  @Test
  void aBeatForAnUnknownInstanceIsNotFound() {
    BeatResult result = f.ops.beat(new Beat(key, Optional.empty()));
    assertThat(result.found()).isFalse();
    assertThat(current()).isEmpty();
  }

  @Test
  void aBeatCarryingTheInstanceRecreatesIt() {
    Instance full = new Instance(key, 2.0, false, true, true, Map.of("v", "1"));
    BeatResult result = f.ops.beat(new Beat(key, Optional.of(full)));
    assertThat(result.found()).isTrue();
    Instance recreated = current().orElseThrow();
    assertThat(recreated.healthy()).isTrue();
    assertThat(recreated.weight()).isEqualTo(2.0);
    assertThat(recreated.metadata()).containsEntry("v", "1");
  }

  @Test
  void instancesOwnedByAnotherNodeAreLeftToTheirOwner() {
    var peerStore = new dev.nacre.naming.ephemeral.EphemeralStore("node-2", f.clock, f.index);
    peerStore.register(instance("10.0.0.1", 8080, true));
    at(60_000);
    assertThat(current()).isPresent();
    new HeartbeatChecker(peerStore, f.config, f.clock).checkOnce();
    assertThat(current()).isEmpty();
  }

  @Test
  void storeReportsChangesWithGrowingRevisions() {
    java.util.List<String> changes = new java.util.ArrayList<>();
    java.util.List<Long> revisions = new java.util.ArrayList<>();
    f.ephemeral.replicateThrough(dev.nacre.consensus.distro.OwnWrites.reportingTo(
        f.ephemeral.localNodeId(), f.clock::millis, (k, before, after) -> {
          changes.add(after.tombstone() ? "removed" : "changed");
          revisions.add(after.revision());
        }), k -> k.instanceId());
    f.ops.registerInstance(instance("10.0.0.1", 8080, true));
    f.ops.beat(new Beat(key, Optional.empty())); // healthy already: nothing to report
    at(16_000);
    f.ops.beat(new Beat(key, Optional.empty()));
    at(47_000);
    assertThat(changes).as("registered, unhealthy, healthy again, removed")
        .containsExactly("changed", "changed", "changed", "removed");
    assertThat(revisions).isSorted().doesNotHaveDuplicates();
  }
}
