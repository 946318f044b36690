package dev.nacre.naming.registry;

import static dev.nacre.naming.support.NamingFixture.SERVICE;
import static dev.nacre.naming.support.NamingFixture.instance;
import static dev.nacre.naming.support.NamingFixture.key;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.InstancePatch;
import dev.nacre.naming.model.Namespace;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.support.NamingFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Installing a snapshot replaces the persistent state in one step per service: readers and
 * listeners never see an instance or an operator's override that the old and the new state both
 * hold go missing, and only services that really changed are reported.
 */
@Timeout(60)
class PersistentStateReplaceTest {
  static final ServiceKey OTHER = new ServiceKey("public", "DEFAULT_GROUP", "payments");
  static final InstanceKey KEPT = key("10.0.0.1", 80);
  static final InstanceKey DISABLED = key("10.0.0.5", 80);
  static final InstanceKey OTHER_KEPT = new InstanceKey(OTHER, "DEFAULT", "10.0.1.1", 80);

  @TempDir Path dir;

  @Test
  void installingASnapshotNeverHidesWhatBothStatesHold() throws Exception {
    Path snapshot = Files.createDirectories(dir.resolve("snap"));
    try (NamingFixture f = new NamingFixture(dir.resolve("db"))) {
      f.ops.createNamespace(new Namespace("dev", "Development", ""));
      f.ops.registerInstance(instance("10.0.0.1", 80, false));
      f.ops.registerInstance(instance("10.0.0.2", 80, false));
      f.ops.registerInstance(new Instance(OTHER_KEPT, 1.0, true, true, false, Map.of()));
      f.ops.registerInstance(instance("10.0.0.5", 80, true));
      f.ops.patchInstance(DISABLED, true,
          new InstancePatch(Optional.empty(), Optional.of(false), Optional.empty(), Optional.empty()));
      f.stateMachine.writeSnapshot(snapshot);
      // This node's state moves on from the snapshot: one instance goes, another comes.
      f.ops.deregisterInstance(key("10.0.0.2", 80), false);
      f.ops.registerInstance(instance("10.0.0.3", 80, false));

      List<String> violations = new CopyOnWriteArrayList<>();
      List<ServiceKey> changed = new CopyOnWriteArrayList<>();
      List<InstanceKey> overridesChanged = new CopyOnWriteArrayList<>();
      f.index.addListener(service -> {
        changed.add(service);
        check(f.index, violations, "listener of " + service.name());
      });
      f.index.overrides().addListener(k -> {
        overridesChanged.add(k);
        check(f.index, violations, "override listener of " + k.instanceId());
      });

      f.stateMachine.installSnapshot(snapshot);

      assertThat(violations).isEmpty();
      assertThat(changed).as("only the service whose persistent instances differ").containsExactly(SERVICE);
      assertThat(overridesChanged).as("the override is the same in both states").isEmpty();
      assertThat(f.ops.allInstances(SERVICE)).extracting(i -> i.key().ip())
          .containsExactly("10.0.0.1", "10.0.0.2", "10.0.0.5");
      assertThat(f.index.instance(DISABLED, true)).get().extracting(Instance::enabled).isEqualTo(false);
      assertThat(f.index.namespace("dev")).isPresent();
    }
  }

  @Test
  void replacingWithTheSameStateReportsNothing() {
    RegistryIndex index = new RegistryIndex();
    Instance a = instance("10.0.0.1", 80, false);
    index.putPersistent(a);
    index.putEphemeral(instance("10.0.0.9", 80, true));
    List<ServiceKey> changed = new ArrayList<>();
    index.addListener(changed::add);

    PersistentState same = new PersistentState();
    same.putPersistent(a);
    index.replacePersistentState(same);
    assertThat(changed).isEmpty();

    index.replacePersistentState(new PersistentState());
    assertThat(changed).containsExactly(SERVICE);
    assertThat(index.snapshot(SERVICE).instances()).extracting(i -> i.key().ip())
        .as("ephemeral instances stay").containsExactly("10.0.0.9");
  }

  private static void check(RegistryIndex index, List<String> violations, String who) {
    if (index.instance(KEPT, false).isEmpty()) {
      violations.add(who + " saw " + KEPT.instanceId() + " missing");
    }
    if (index.instance(OTHER_KEPT, false).isEmpty()) {
      violations.add(who + " saw " + OTHER_KEPT.instanceId() + " missing");
    }
    Optional<Instance> disabled = index.instance(DISABLED, true);
    if (disabled.isEmpty() || disabled.get().enabled()) {
      violations.add(who + " saw " + DISABLED.instanceId() + " enabled or missing");
    }
    if (index.namespace("dev").isEmpty()) {
      violations.add(who + " saw namespace dev missing");
    }
  }
}
