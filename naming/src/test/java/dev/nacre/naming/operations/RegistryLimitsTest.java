package dev.nacre.naming.operations;

import static dev.nacre.naming.support.NamingFixture.SERVICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.naming.api.NamingConfig;
import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceInfo;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.support.NamingFixture;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Registrations past nacre.naming.max-instances-per-service / max-services-per-namespace are refused, updates are not. */
class RegistryLimitsTest {
  @TempDir Path dir;
  NamingFixture f;

  @BeforeEach
  void setUp() {
    f = new NamingFixture(dir.resolve("db"), NamingConfig.defaults().withLimits(new NamingConfig.Limits(3, 2)));
  }

  @AfterEach
  void tearDown() {
    f.close();
  }

  private static Instance in(ServiceKey service, int port, boolean ephemeral) {
    return new Instance(new InstanceKey(service, "DEFAULT", "127.0.0.1", port), 1, true, true, ephemeral, Map.of());
  }

  @Test
  void aServiceTakesNoInstanceBeyondItsLimitOfEitherKindButUpdatesGoOn() {
    f.ops.registerInstance(in(SERVICE, 1, true));
    f.ops.registerInstance(in(SERVICE, 2, false));
    f.ops.registerClientInstance("c1", in(SERVICE, 3, true));
    for (Instance fourth : List.of(in(SERVICE, 4, true), in(SERVICE, 4, false))) {
      assertThatThrownBy(() -> f.ops.registerInstance(fourth))
          .isInstanceOfSatisfying(NamingException.class, e -> {
            assertThat(e.kind()).isEqualTo(NamingException.Kind.INVALID);
            assertThat(e.getMessage()).contains("holds 3 instances").contains("nacre.naming.max-instances-per-service");
          });
    }
    assertThatThrownBy(() -> f.ops.registerClientInstance("c1", in(SERVICE, 5, true)))
        .hasMessageContaining("max-instances-per-service");
    assertThat(f.index.service(SERVICE).orElseThrow().instanceCount()).isEqualTo(3);

    // Re-registering what is held (a weight change, a client's redo) is not a new instance.
    f.ops.registerInstance(new Instance(in(SERVICE, 1, true).key(), 5, true, true, true, Map.of()));
    f.ops.registerInstance(in(SERVICE, 2, false));
    assertThat(f.ops.getInstance(in(SERVICE, 1, true).key()).weight()).isEqualTo(5.0);

    // After a removal there is room again.
    f.ops.deregisterInstance(in(SERVICE, 1, true).key(), true);
    f.ops.registerInstance(in(SERVICE, 4, true));
  }

  @Test
  void aBatchThatWouldPassTheLimitChangesNothing() {
    f.ops.registerInstance(in(SERVICE, 1, true));
    List<Instance> batch = List.of(in(SERVICE, 2, true), in(SERVICE, 3, true), in(SERVICE, 4, true));
    assertThatThrownBy(() -> f.ops.replaceClientInstances("c1", SERVICE, batch))
        .hasMessageContaining("3 more would pass 3");
    assertThat(f.index.service(SERVICE).orElseThrow().instanceCount()).isEqualTo(1);
    f.ops.replaceClientInstances("c1", SERVICE, batch.subList(0, 2));
    assertThat(f.index.service(SERVICE).orElseThrow().instanceCount()).isEqualTo(3);
  }

  @Test
  void aNamespaceTakesNoServiceBeyondItsLimitWhetherCreatedOrImplied() {
    ServiceKey second = new ServiceKey("public", "DEFAULT_GROUP", "second");
    ServiceKey third = new ServiceKey("public", "DEFAULT_GROUP", "third");
    f.ops.registerInstance(in(SERVICE, 1, true));
    f.ops.createService(ServiceInfo.defaults(second));
    assertThatThrownBy(() -> f.ops.registerInstance(in(third, 1, true)))
        .isInstanceOf(NamingException.class)
        .hasMessageContaining("namespace public holds 2 services").hasMessageContaining("max-services-per-namespace");
    assertThatThrownBy(() -> f.ops.createService(ServiceInfo.defaults(third)))
        .hasMessageContaining("max-services-per-namespace");
    // Services that exist take instances; another namespace has its own count.
    f.ops.registerInstance(in(second, 1, false));
    f.ops.registerInstance(in(new ServiceKey("other", "DEFAULT_GROUP", "third"), 1, true));
  }
}
