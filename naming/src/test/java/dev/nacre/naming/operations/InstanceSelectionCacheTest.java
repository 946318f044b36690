package dev.nacre.naming.operations;

import static dev.nacre.naming.support.NamingFixture.SERVICE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceInfo;
import dev.nacre.naming.model.ServiceView;
import dev.nacre.naming.support.NamingFixture;
import dev.nacre.naming.support.NamingFixturePerTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A list is computed once per service snapshot and filter: the cached answer equals the freshly
 * computed one, only its time moves, and any change of the service gives a fresh one.
 */
@Timeout(30)
@ExtendWith(NamingFixturePerTest.class)
class InstanceSelectionCacheTest {
  static final List<Set<String>> CLUSTERS = List.of(Set.of(), Set.of("c1"), Set.of("c2", "c1"), Set.of("none"));

  NamingFixture f;

  @BeforeEach
  void setUp() {
    f.ops.registerInstance(instance("c1", "10.0.0.1", true, true, true));
    f.ops.registerInstance(instance("c1", "10.0.0.2", true, true, true));
    f.ops.registerInstance(instance("c2", "10.0.0.3", true, false, true));
    f.ops.registerInstance(instance("c2", "10.0.0.4", false, true, true));
    f.index.setHealth(new InstanceKey(SERVICE, "c1", "10.0.0.2", 80), true, false);
  }

  @Test
  void cachedAnswersEqualFreshOnesAndOnlyTheirTimeMoves() {
    for (Set<String> clusters : CLUSTERS) {
      for (boolean healthyOnly : new boolean[] {false, true}) {
        ServiceView first = f.ops.listInstances(SERVICE, clusters, healthyOnly, false);
        assertThat(first).isEqualTo(fresh(clusters, healthyOnly));
        f.clock.advance(Duration.ofSeconds(1));
        ServiceView second = f.ops.listInstances(SERVICE, clusters, healthyOnly, false);
        assertThat(second.lastRefTime()).isEqualTo(first.lastRefTime() + 1000);
        assertThat(second).isEqualTo(fresh(clusters, healthyOnly));
        assertThat(second.renderings()).as("shared encodings").isSameAs(first.renderings());
        assertThat(second.hosts()).isSameAs(first.hosts());
      }
    }
    assertThat(f.ops.listInstances(SERVICE, Set.of(), true, false).renderings())
        .as("another filter, other encodings")
        .isNotSameAs(f.ops.listInstances(SERVICE, Set.of(), false, false).renderings());
  }

  @Test
  void anyChangeOfTheServiceGivesAFreshAnswer() {
    ServiceView before = f.ops.listInstances(SERVICE, Set.of(), true, false);

    f.index.setHealth(new InstanceKey(SERVICE, "c1", "10.0.0.2", 80), true, true);
    ServiceView healthier = f.ops.listInstances(SERVICE, Set.of(), true, false);
    assertThat(healthier).isEqualTo(fresh(Set.of(), true));
    assertThat(healthier.hosts()).hasSize(before.hosts().size() + 1);
    assertThat(healthier.checksum()).isNotEqualTo(before.checksum());
    assertThat(healthier.renderings()).isNotSameAs(before.renderings());

    // A setting of the service (not of an instance) changes the answer too: the threshold.
    f.ops.updateService(new ServiceInfo(SERVICE, 0.99f, Map.of(), ServiceInfo.NO_SELECTOR));
    ServiceView protectedView = f.ops.listInstances(SERVICE, Set.of(), true, false);
    assertThat(protectedView.reachProtectionThreshold()).isTrue();
    assertThat(protectedView).isEqualTo(fresh(Set.of(), true));

    f.ops.deregisterInstance(new InstanceKey(SERVICE, "c1", "10.0.0.1", 80), true);
    assertThat(f.ops.listInstances(SERVICE, Set.of(), false, false)).isEqualTo(fresh(Set.of(), false));
    assertThat(f.ops.listInstances(SERVICE, Set.of(), false, false).hosts())
        .extracting(i -> i.key().ip()).doesNotContain("10.0.0.1");
  }

  private ServiceView fresh(Set<String> clusters, boolean healthyOnly) {
    return InstanceSelection.compute(f.index.snapshot(SERVICE), clusters, healthyOnly).at(f.clock.millis());
  }

  private static Instance instance(String cluster, String ip, boolean enabled, boolean healthy, boolean ephemeral) {
    return new Instance(new InstanceKey(SERVICE, cluster, ip, 80), 1.0, healthy, enabled, ephemeral, Map.of("k", ip));
  }
}
