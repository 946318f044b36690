package dev.nacre.naming.operations;

import static dev.nacre.naming.support.NamingFixture.SERVICE;
import static dev.nacre.naming.support.NamingFixture.instance;
import static dev.nacre.naming.support.NamingFixture.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.ephemeral.EphemeralRecord;
import dev.nacre.naming.health.HeartbeatChecker;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.support.NamingFixture;
import dev.nacre.naming.support.NamingFixturePerTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** Ephemeral instances owned by client connections (Nacos 2.x gRPC), not by beats. */
@Timeout(30)
@ExtendWith(NamingFixturePerTest.class)
class ClientInstancesTest {
  NamingFixture f;

  /** A healthy, enabled, ephemeral instance of weight 1 in another service of the public namespace. */
  private static Instance inService(String service, String ip, int port) {
    return new Instance(new InstanceKey(new ServiceKey("public", "DEFAULT_GROUP", service), "DEFAULT", ip, port),
        1.0, true, true, true, Map.of());
  }

  private List<String> hosts(ServiceKey service) {
    return f.ops.listInstances(service, Set.of(), false, false).hosts().stream()
        .map(i -> i.key().ip() + ":" + i.key().port()).sorted().toList();
  }

  @Test
  void connectionInstancesOutliveTheHeartbeatTimeoutsAndGoWithTheConnection() {
    f.ops.registerClientInstance("c1", instance("127.0.0.1", 8080, true));
    f.ops.registerInstance(instance("127.0.0.1", 9090, true)); // beat-driven, for contrast
    HeartbeatChecker checker = new HeartbeatChecker(f.ephemeral, f.config, f.clock);

    f.clock.advance(f.config.defaultIpDeleteTimeout().plus(Duration.ofSeconds(5)));
    checker.checkOnce();

    assertThat(hosts(SERVICE)).containsExactly("127.0.0.1:8080");
    assertThat(f.ops.getInstance(key("127.0.0.1", 8080)).healthy()).isTrue();
    assertThat(f.ops.removeClient("c2")).isZero();
    assertThat(f.ops.removeClient("c1")).isEqualTo(1);
    assertThat(hosts(SERVICE)).isEmpty();
  }

  @Test
  void aConnectionsInstancesAreFoundAfterEveryKindOfTakeover() {
    f.ops.registerClientInstance("c1", instance("127.0.0.1", 8080, true));
    f.ops.registerClientInstance("c1", inService("payments", "127.0.0.1", 7000));
    f.ops.registerClientInstance("c2", instance("127.0.0.2", 8080, true));
    assertThat(f.ops.clientInstances("c1")).hasSize(2);
    assertThat(f.ephemeral.connectionOwners()).isEqualTo(2);

    // An HTTP registration of the same address unties it from the connection.
    f.ops.registerInstance(instance("127.0.0.1", 8080, true));
    assertThat(f.ops.clientInstances("c1")).extracting(InstanceKey::port).containsExactly(7000);
    // A peer's record replaces another: the connection no longer owns it here.
    f.ephemeral.putReplica(instance("127.0.0.2", 8080, true), "127.0.0.1:9999", 1);
    assertThat(f.ops.clientInstances("c2")).isEmpty();
    assertThat(f.ops.removeClient("c2")).isZero();
    // Registering again over the connection ties it once more.
    f.ops.registerClientInstance("c2", instance("127.0.0.2", 8080, true));
    assertThat(f.ops.clientInstances("c2")).extracting(InstanceKey::port).containsExactly(8080);

    assertThat(f.ops.removeClient("c1")).isEqualTo(1);
    assertThat(f.ops.removeClient("c2")).isEqualTo(1);
    assertThat(f.ephemeral.connectionOwners()).isZero();
    assertThat(hosts(SERVICE)).containsExactly("127.0.0.1:8080");
  }

  @Test
  void oneInstancePerServicePerConnection() {
    ServiceKey other = new ServiceKey("public", "DEFAULT_GROUP", "payments");
    f.ops.registerClientInstance("c1", instance("127.0.0.1", 8080, true));
    f.ops.registerClientInstance("c1", inService("payments", "127.0.0.1", 7000));
    f.ops.registerClientInstance("c2", instance("127.0.0.2", 8080, true));

    f.ops.registerClientInstance("c1", instance("127.0.0.1", 8081, true));

    assertThat(hosts(SERVICE)).containsExactly("127.0.0.1:8081", "127.0.0.2:8080");
    assertThat(hosts(other)).as("another service of the same connection stays").containsExactly("127.0.0.1:7000");
  }

  @Test
  void aBatchReplacesTheConnectionsSetForTheService() {
    f.ops.replaceClientInstances("c1", SERVICE,
        List.of(instance("127.0.0.1", 1, true), instance("127.0.0.1", 2, true), instance("127.0.0.1", 3, true)));
    f.ops.registerClientInstance("c2", instance("127.0.0.2", 1, true));
    assertThat(hosts(SERVICE)).hasSize(4);

    f.ops.replaceClientInstances("c1", SERVICE, List.of(instance("127.0.0.1", 3, true), instance("127.0.0.1", 4, true)));
    assertThat(hosts(SERVICE)).containsExactly("127.0.0.1:3", "127.0.0.1:4", "127.0.0.2:1");

    f.ops.replaceClientInstances("c1", SERVICE, List.of());
    assertThat(hosts(SERVICE)).containsExactly("127.0.0.2:1");
  }

  @Test
  void aBadInstanceInABatchChangesNothing() {
    f.ops.replaceClientInstances("c1", SERVICE, List.of(instance("127.0.0.1", 1, true)));
    List<Instance> bad = new ArrayList<>(List.of(instance("127.0.0.1", 2, true)));
    bad.add(instance("127.0.0.1", 70000, true));
    assertThatThrownBy(() -> f.ops.replaceClientInstances("c1", SERVICE, bad))
        .isInstanceOfSatisfying(NamingException.class, e -> assertThat(e.kind()).isEqualTo(NamingException.Kind.INVALID));
    assertThat(hosts(SERVICE)).containsExactly("127.0.0.1:1");
  }

  @Test
  void deregisterAndTakeoverByAnotherRegistration() {
    f.ops.registerClientInstance("c1", instance("127.0.0.1", 1, true));
    f.ops.registerClientInstance("c1", inService("b", "127.0.0.1", 1));
    // An HTTP registration of the same address unties it from the connection.
    f.ops.registerInstance(instance("127.0.0.1", 1, true));
    Optional<EphemeralRecord> record = f.ephemeral.get(key("127.0.0.1", 1));
    assertThat(record).hasValueSatisfying(r -> assertThat(r.connectionOwned()).isFalse());

    assertThat(f.ops.removeClient("c1")).as("only the instance it still owns").isEqualTo(1);
    assertThat(hosts(SERVICE)).containsExactly("127.0.0.1:1");

    f.ops.deregisterClientInstance("c9", key("127.0.0.1", 1));
    assertThat(hosts(SERVICE)).as("a deregistration by key removes it whoever owns it").isEmpty();
  }

  @Test
  void persistentInstancesAreRefusedOnTheConnectionPath() {
    assertThatThrownBy(() -> f.ops.registerClientInstance("c1", instance("127.0.0.1", 1, false)))
        .isInstanceOf(NamingException.class).hasMessageContaining("ephemeral");
  }
}
