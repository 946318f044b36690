package dev.nacre.naming.operations;

import static dev.nacre.naming.support.NamingFixture.SERVICE;
import static dev.nacre.naming.support.NamingFixture.key;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.ServiceInfo;
import dev.nacre.naming.model.ServiceView;
import dev.nacre.naming.support.NamingFixture;
import dev.nacre.naming.support.NamingFixturePerTest;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

@Timeout(30)
@ExtendWith(NamingFixturePerTest.class)
class ProtectionThresholdTest {
  NamingFixture f;

  private void instances(int healthy, int unhealthy) {
    for (int i = 0; i < healthy + unhealthy; i++) {
      f.ops.registerInstance(new Instance(key("10.0.0." + (i + 1), 80), 1, i < healthy, true, true, Map.of()));
    }
  }

  private void threshold(float t) {
    f.ops.createService(new ServiceInfo(SERVICE, t, Map.of(), ServiceInfo.NO_SELECTOR));
  }

  @Test
  void belowThresholdReturnsAllMarkedHealthy() {
    threshold(0.5f);
    instances(1, 3); // 0.25 <= 0.5
    ServiceView view = f.ops.listInstances(SERVICE, Set.of(), true, false);
    assertThat(view.reachProtectionThreshold()).isTrue();
    assertThat(view.hosts()).hasSize(4).allMatch(Instance::healthy);
    assertThat(f.ops.allInstances(SERVICE)).filteredOn(i -> !i.healthy())
        .as("the stored instances keep their real health").hasSize(3);
  }

  @Test
  void exactlyAtThresholdCounts() {
    threshold(0.5f);
    instances(2, 2); // 0.5 <= 0.5, as Nacos compares
    assertThat(f.ops.listInstances(SERVICE, Set.of(), true, false).reachProtectionThreshold()).isTrue();
  }

  @Test
  void aboveThresholdFiltersWhenHealthyOnly() {
    threshold(0.5f);
    instances(3, 1); // 0.75 > 0.5
    ServiceView view = f.ops.listInstances(SERVICE, Set.of(), true, false);
    assertThat(view.reachProtectionThreshold()).isFalse();
    assertThat(view.hosts()).hasSize(3);
  }

  @Test
  void thresholdZeroTripsOnlyWhenNoneIsHealthy() {
    instances(0, 2); // default threshold 0: 0/2 <= 0
    ServiceView none = f.ops.listInstances(SERVICE, Set.of(), true, false);
    assertThat(none.reachProtectionThreshold()).isTrue();
    assertThat(none.hosts()).hasSize(2);

    f.ops.registerInstance(new Instance(key("10.0.0.9", 80), 1, true, true, true, Map.of()));
    ServiceView some = f.ops.listInstances(SERVICE, Set.of(), true, false);
    assertThat(some.reachProtectionThreshold()).isFalse();
    assertThat(some.hosts()).extracting(i -> i.key().ip()).containsExactly("10.0.0.9");
  }

  @Test
  void disabledInstancesDoNotCount() {
    threshold(0.5f);
    instances(1, 0);
    f.ops.registerInstance(new Instance(key("10.0.0.7", 80), 1, false, false, true, Map.of()));
    f.ops.registerInstance(new Instance(key("10.0.0.8", 80), 1, false, false, true, Map.of()));
    ServiceView view = f.ops.listInstances(SERVICE, Set.of(), true, false);
    assertThat(view.reachProtectionThreshold()).isFalse();
    assertThat(view.hosts()).hasSize(1);
  }

  @Test
  void anEmptyServiceNeverTrips() {
    threshold(1f);
    assertThat(f.ops.listInstances(SERVICE, Set.of(), true, false).reachProtectionThreshold()).isFalse();
  }
}
