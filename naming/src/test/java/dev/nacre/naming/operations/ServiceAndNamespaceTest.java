package dev.nacre.naming.operations;

import static dev.nacre.naming.support.NamingFixture.SERVICE;
import static dev.nacre.naming.support.NamingFixture.instance;
import static dev.nacre.naming.support.NamingFixture.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.api.NamingException.Kind;
import dev.nacre.naming.model.ClusterInfo;
import dev.nacre.naming.model.HealthCheckType;
import dev.nacre.naming.model.Namespace;
import dev.nacre.naming.model.ServiceInfo;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.support.NamingFixture;
import dev.nacre.naming.support.NamingFixturePerTest;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

@Timeout(30)
@ExtendWith(NamingFixturePerTest.class)
class ServiceAndNamespaceTest {
  NamingFixture f;

  static void fails(Kind kind, String text, ThrowingCallable call) {
    assertThatThrownBy(call).isInstanceOfSatisfying(NamingException.class, e -> {
      assertThat(e.kind()).isEqualTo(kind);
      assertThat(e.getMessage()).contains(text);
    });
  }

  static ServiceInfo info(ServiceKey key, float threshold) {
    return new ServiceInfo(key, threshold, Map.of("owner", "team-a"), ServiceInfo.NO_SELECTOR);
  }

  @Test
  void createGetUpdateDelete() {
    f.ops.createService(info(SERVICE, 0.3f));
    assertThat(f.ops.getService(SERVICE).protectThreshold()).isEqualTo(0.3f);
    fails(Kind.CONFLICT, "already exists", () -> f.ops.createService(info(SERVICE, 0.1f)));

    f.ops.updateService(info(SERVICE, 0.6f));
    assertThat(f.ops.getService(SERVICE).protectThreshold()).isEqualTo(0.6f);

    f.ops.deleteService(SERVICE);
    fails(Kind.NOT_FOUND, "not found", () -> f.ops.getService(SERVICE));
    fails(Kind.NOT_FOUND, "not found", () -> f.ops.deleteService(SERVICE));
    fails(Kind.NOT_FOUND, "not found", () -> f.ops.updateService(info(SERVICE, 0.1f)));
  }

  @Test
  void createFailsWhenTheServiceExistsThroughItsInstances() {
    f.ops.registerInstance(instance("10.0.0.1", 80, true));
    fails(Kind.CONFLICT, "specified service DEFAULT_GROUP@@orders already exists", () -> f.ops.createService(info(SERVICE, 0f)));
    f.ops.updateService(info(SERVICE, 0.4f));
    assertThat(f.ops.getService(SERVICE).protectThreshold()).isEqualTo(0.4f);
  }

  @Test
  void deleteRefusedWhileInstancesRemain() {
    f.ops.createService(info(SERVICE, 0f));
    f.ops.registerInstance(instance("10.0.0.1", 80, false));
    fails(Kind.CONFLICT, "is not empty", () -> f.ops.deleteService(SERVICE));
    f.ops.deregisterInstance(key("10.0.0.1", 80), false);
    f.ops.registerInstance(instance("10.0.0.2", 80, true));
    fails(Kind.CONFLICT, "is not empty", () -> f.ops.deleteService(SERVICE));
    f.ops.deregisterInstance(key("10.0.0.2", 80), true);
    f.ops.deleteService(SERVICE);
    fails(Kind.NOT_FOUND, "not found", () -> f.ops.getService(SERVICE));
  }

  @Test
  void listIsPerNamespaceAndGroupSortedAndPaged() {
    for (String name : new String[] {"c", "a", "e", "b", "d"}) {
      f.ops.createService(info(new ServiceKey("public", "DEFAULT_GROUP", name), 0f));
    }
    f.ops.createService(info(new ServiceKey("public", "OTHER", "z"), 0f));
    f.ops.createService(info(new ServiceKey("dev", "DEFAULT_GROUP", "y"), 0f));

    var first = f.ops.listServices("public", "DEFAULT_GROUP", 1, 2);
    assertThat(first.count()).isEqualTo(5);
    assertThat(first.names()).containsExactly("a", "b");
    assertThat(f.ops.listServices("public", "DEFAULT_GROUP", 3, 2).names()).containsExactly("e");
    assertThat(f.ops.listServices("public", "DEFAULT_GROUP", 4, 2).names()).isEmpty();
    assertThat(f.ops.listServices("public", "OTHER", 1, 10).names()).containsExactly("z");
    assertThat(f.ops.listServices("dev", "DEFAULT_GROUP", 1, 10).names()).containsExactly("y");
    fails(Kind.INVALID, "pageNo", () -> f.ops.listServices("public", "DEFAULT_GROUP", 0, 10));
  }

  @Test
  void namespaces() {
    assertThat(f.ops.listNamespaces()).containsExactly(Namespace.PUBLIC);
    Namespace dev = new Namespace("dev", "Development", "for developers");
    f.ops.createNamespace(dev);
    fails(Kind.CONFLICT, "already exists", () -> f.ops.createNamespace(dev));
    fails(Kind.CONFLICT, "already exists", () -> f.ops.createNamespace(new Namespace("public", "p", "")));
    f.ops.updateNamespace(new Namespace("dev", "Dev", "changed"));
    assertThat(f.ops.listNamespaces()).containsExactly(Namespace.PUBLIC, new Namespace("dev", "Dev", "changed"));
    fails(Kind.NOT_FOUND, "not found", () -> f.ops.updateNamespace(new Namespace("qa", "QA", "")));
    fails(Kind.INVALID, "cannot be deleted", () -> f.ops.deleteNamespace("public"));
    f.ops.deleteNamespace("dev");
    assertThat(f.ops.listNamespaces()).containsExactly(Namespace.PUBLIC);
  }

  @Test
  void clusterSettingsNeedAServiceAndGoWithIt() {
    ClusterInfo http = new ClusterInfo(SERVICE, "DEFAULT", HealthCheckType.HTTP, "/health", 80, true, Map.of());
    fails(Kind.NOT_FOUND, "not found", () -> f.ops.updateCluster(http));
    f.ops.createService(info(SERVICE, 0f));
    assertThat(f.ops.getCluster(SERVICE, "DEFAULT").checkType()).isEqualTo(HealthCheckType.TCP);
    f.ops.updateCluster(http);
    assertThat(f.ops.getCluster(SERVICE, "DEFAULT")).isEqualTo(http);
    f.ops.deleteService(SERVICE);
    f.ops.createService(info(SERVICE, 0f));
    assertThat(f.ops.getCluster(SERVICE, "DEFAULT").checkType()).isEqualTo(HealthCheckType.TCP);
  }
}
