package dev.nacre.naming.operations;

import static dev.nacre.naming.support.NamingFixture.SERVICE;
import static dev.nacre.naming.support.NamingFixture.instance;
import static dev.nacre.naming.support.NamingFixture.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstancePatch;
import dev.nacre.naming.model.ServiceView;
import dev.nacre.naming.support.NamingFixture;
import dev.nacre.naming.support.NamingFixturePerTest;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

@Timeout(30)
@ExtendWith(NamingFixturePerTest.class)
class EphemeralInstanceTest {
  NamingFixture f;

  /** The addresses {@code listInstances} gives for the service, all clusters, in its order. */
  private List<String> listedIps(boolean healthyOnly) {
    return f.ops.listInstances(SERVICE, Set.of(), healthyOnly, false).hosts().stream().map(i -> i.key().ip()).toList();
  }

  @Test
  void registerListGetDeregister() {
    f.ops.registerInstance(instance("10.0.0.1", 8080, true));

    ServiceView view = f.ops.listInstances(SERVICE, Set.of(), false, false);
    assertThat(view.hosts()).extracting(i -> i.key().instanceId())
        .containsExactly("10.0.0.1#8080#DEFAULT#DEFAULT_GROUP@@orders");
    assertThat(f.ops.getInstance(key("10.0.0.1", 8080)).ephemeral()).isTrue();
    assertThat(f.log.entries()).as("ephemeral writes never touch the log").isEmpty();

    f.ops.deregisterInstance(key("10.0.0.1", 8080), true);
    assertThat(f.ops.listInstances(SERVICE, Set.of(), false, false).hosts()).isEmpty();
    assertThatThrownBy(() -> f.ops.getInstance(key("10.0.0.1", 8080)))
        .isInstanceOfSatisfying(NamingException.class, e -> assertThat(e.kind()).isEqualTo(NamingException.Kind.NOT_FOUND));
    assertThatThrownBy(() -> f.ops.getService(SERVICE))
        .as("a service that only had that instance is gone with it")
        .isInstanceOf(NamingException.class);
  }

  @Test
  void deregisteringAnAbsentInstanceSucceeds() {
    f.ops.deregisterInstance(key("10.0.0.9", 1), true);
    assertThat(f.ops.allInstances(SERVICE)).isEmpty();
  }

  @Test
  void doubleRegisterKeepsOneInstance() {
    f.ops.registerInstance(instance("10.0.0.1", 8080, true));
    f.ops.registerInstance(instance("10.0.0.1", 8080, true));
    assertThat(f.ops.allInstances(SERVICE)).hasSize(1);
  }

  @Test
  void serviceExistsOnceItHasAnInstance() {
    f.ops.registerInstance(instance("10.0.0.1", 8080, true));
    assertThat(f.ops.getService(SERVICE).protectThreshold()).isZero();
    assertThat(f.ops.listServices("public", "DEFAULT_GROUP", 1, 10).names()).containsExactly("orders");
  }

  @Test
  void updateReplacesAndRequiresExistence() {
    Instance changed = new Instance(key("10.0.0.1", 8080), 3.5, true, true, true, Map.of("v", "2"));
    assertThatThrownBy(() -> f.ops.updateInstance(changed))
        .isInstanceOfSatisfying(NamingException.class, e -> assertThat(e.kind()).isEqualTo(NamingException.Kind.NOT_FOUND));

    f.ops.registerInstance(instance("10.0.0.1", 8080, true));
    f.ops.updateInstance(changed);
    Instance got = f.ops.getInstance(key("10.0.0.1", 8080));
    assertThat(got.weight()).isEqualTo(3.5);
    assertThat(got.metadata()).containsEntry("v", "2");
  }

  @Test
  void patchChangesOnlyGivenFields() {
    f.ops.registerInstance(new Instance(key("10.0.0.1", 8080), 2.0, true, true, true, Map.of("a", "1")));
    f.ops.patchInstance(key("10.0.0.1", 8080), true,
        new InstancePatch(Optional.empty(), Optional.of(false), Optional.empty(), Optional.empty()));
    Instance got = f.ops.getInstance(key("10.0.0.1", 8080));
    assertThat(got.enabled()).isFalse();
    assertThat(got.weight()).isEqualTo(2.0);
    assertThat(got.metadata()).containsEntry("a", "1");
    assertThatThrownBy(() -> f.ops.patchInstance(key("10.0.0.2", 8080), true,
        new InstancePatch(Optional.of(1.0), Optional.empty(), Optional.empty(), Optional.empty())))
        .isInstanceOfSatisfying(NamingException.class, e -> assertThat(e.kind()).isEqualTo(NamingException.Kind.NOT_FOUND));
  }

  @Test
  void disabledInstancesAreHiddenFromListButShownInDetail() {
    f.ops.registerInstance(instance("10.0.0.1", 8080, true));
    f.ops.registerInstance(new Instance(key("10.0.0.2", 8080), 1.0, true, false, true, Map.of()));
    assertThat(listedIps(false)).containsExactly("10.0.0.1");
    assertThat(f.ops.allInstances(SERVICE)).hasSize(2);
  }

  @Test
  void healthyOnlyDropsUnhealthyWhenAboveThreshold() {
    f.ops.registerInstance(instance("10.0.0.1", 8080, true));
    f.ops.registerInstance(new Instance(key("10.0.0.2", 8080), 1.0, false, true, true, Map.of()));
    assertThat(listedIps(true)).containsExactly("10.0.0.1");
    assertThat(f.ops.listInstances(SERVICE, Set.of(), false, false).hosts()).hasSize(2);
  }

  @Test
  void clusterFilterSelectsClusters() {
    f.ops.registerInstance(instance("10.0.0.1", 8080, true));
    Instance other = new Instance(new dev.nacre.naming.model.InstanceKey(SERVICE, "east", "10.0.0.2", 8080),
        1.0, true, true, true, Map.of());
    f.ops.registerInstance(other);
    ServiceView view = f.ops.listInstances(SERVICE, Set.of("east"), false, false);
    assertThat(view.hosts()).extracting(i -> i.key().ip()).containsExactly("10.0.0.2");
    assertThat(view.clusters()).isEqualTo("east");
  }

  @Test
  void checksumChangesWhenHostsChange() {
    f.ops.registerInstance(instance("10.0.0.1", 8080, true));
    String first = f.ops.listInstances(SERVICE, Set.of(), false, false).checksum();
    assertThat(f.ops.listInstances(SERVICE, Set.of(), false, false).checksum()).isEqualTo(first);
    f.ops.registerInstance(instance("10.0.0.2", 8080, true));
    assertThat(f.ops.listInstances(SERVICE, Set.of(), false, false).checksum()).isNotEqualTo(first);
  }

  @Test
  void lastRefTimeIsNow() {
    assertThat(f.ops.listInstances(SERVICE, Set.of(), false, false).lastRefTime())
        .isEqualTo(f.clock.millis());
  }

  @Test
  void ephemeralCannotTakeAPersistentAddressAndViceVersa() {
    f.ops.registerInstance(instance("10.0.0.1", 8080, false));
    assertThatThrownBy(() -> f.ops.registerInstance(instance("10.0.0.1", 8080, true)))
        .isInstanceOfSatisfying(NamingException.class, e -> {
          assertThat(e.kind()).isEqualTo(NamingException.Kind.CONFLICT);
          assertThat(e.getMessage()).contains("10.0.0.1:8080", "already registered as persistent");
        });

    f.ops.registerInstance(instance("10.0.0.2", 8080, true));
    assertThatThrownBy(() -> f.ops.registerInstance(instance("10.0.0.2", 8080, false)))
        .isInstanceOfSatisfying(NamingException.class, e -> {
          assertThat(e.kind()).isEqualTo(NamingException.Kind.CONFLICT);
          assertThat(e.getMessage()).contains("already registered as ephemeral");
        });
    assertThat(f.ops.allInstances(SERVICE)).hasSize(2);
  }

  @Test
  void anInstanceMayNameANamespaceThatWasNeverCreated() {
    var service = new dev.nacre.naming.model.ServiceKey("dev-ns", "DEFAULT_GROUP", "orders");
    f.ops.registerInstance(new Instance(new dev.nacre.naming.model.InstanceKey(service, "DEFAULT", "10.0.0.1", 1),
        1.0, true, true, true, Map.of()));
    assertThat(f.ops.listInstances(service, Set.of(), false, false).hosts()).hasSize(1);
    assertThat(f.ops.listInstances(SERVICE, Set.of(), false, false).hosts()).isEmpty();
  }
}
