package dev.nacre.naming.operations;

import static dev.nacre.naming.support.NamingFixture.SERVICE;
import static dev.nacre.naming.support.NamingFixture.instance;
import static dev.nacre.naming.support.NamingFixture.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.naming.api.NamingConfig;
import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstancePatch;
import dev.nacre.naming.support.DirectReplicatedLog.Mode;
import dev.nacre.naming.support.NamingFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class PersistentInstanceTest {
  @TempDir Path dir;
  NamingFixture f;

  @BeforeEach
  void setUp() {
    f = new NamingFixture(dir.resolve("db"), NamingConfig.defaults().withCpWriteTimeout(Duration.ofMillis(300)));
  }

  @AfterEach
  void tearDown() {
    f.close();
  }

  @Test
  void registerGoesThroughTheLogAndIsListed() {
    f.ops.registerInstance(instance("10.0.0.1", 8080, false));
    assertThat(f.log.entries()).hasSize(1);
    assertThat(f.stateMachine.lastAppliedIndex()).isEqualTo(1);
    Instance got = f.ops.getInstance(key("10.0.0.1", 8080));
    assertThat(got.ephemeral()).isFalse();
    assertThat(got.healthy()).as("initial health is the registration's flag").isTrue();
    assertThat(f.ops.listInstances(SERVICE, Set.of(), true, false).hosts()).hasSize(1);
  }

  @Test
  void initialHealthFollowsTheRegistration() {
    f.ops.registerInstance(new Instance(key("10.0.0.1", 8080), 1, false, true, false, Map.of()));
    assertThat(f.ops.getInstance(key("10.0.0.1", 8080)).healthy()).isFalse();
  }

  @Test
  void doubleRegisterKeepsOneInstance() {
    f.ops.registerInstance(instance("10.0.0.1", 8080, false));
    f.ops.registerInstance(instance("10.0.0.1", 8080, false));
    assertThat(f.ops.allInstances(SERVICE)).hasSize(1);
  }

  @Test
  void updatePatchAndDeregister() {
    assertThatThrownBy(() -> f.ops.updateInstance(instance("10.0.0.1", 8080, false)))
        .isInstanceOfSatisfying(NamingException.class, e -> assertThat(e.kind()).isEqualTo(NamingException.Kind.NOT_FOUND));
    f.ops.registerInstance(instance("10.0.0.1", 8080, false));
    f.ops.updateInstance(new Instance(key("10.0.0.1", 8080), 7, true, true, false, Map.of("zone", "a")));
    assertThat(f.ops.getInstance(key("10.0.0.1", 8080)).weight()).isEqualTo(7);
    f.ops.patchInstance(key("10.0.0.1", 8080), false,
        new InstancePatch(Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(Map.of("zone", "b"))));
    Instance got = f.ops.getInstance(key("10.0.0.1", 8080));
    assertThat(got.metadata()).containsExactly(Map.entry("zone", "b"));
    assertThat(got.weight()).isEqualTo(7);

    f.ops.deregisterInstance(key("10.0.0.1", 8080), false);
    assertThat(f.ops.allInstances(SERVICE)).isEmpty();
    assertThat(f.log.entries()).hasSize(4);
  }

  @Test
  void patchingTheWrongKindIsNotFound() {
    f.ops.registerInstance(instance("10.0.0.1", 8080, false));
    assertThatThrownBy(() -> f.ops.patchInstance(key("10.0.0.1", 8080), true,
        new InstancePatch(Optional.of(2.0), Optional.empty(), Optional.empty(), Optional.empty())))
        .isInstanceOfSatisfying(NamingException.class, e -> assertThat(e.kind()).isEqualTo(NamingException.Kind.NOT_FOUND));
  }

  @Test
  void withoutQuorumAWriteFailsUnavailableAndSaysWhy() {
    f.log.setMode(Mode.UNAVAILABLE);
    assertThatThrownBy(() -> f.ops.registerInstance(instance("10.0.0.1", 8080, false)))
        .isInstanceOfSatisfying(NamingException.class, e -> {
          assertThat(e.kind()).isEqualTo(NamingException.Kind.UNAVAILABLE);
          assertThat(e.getMessage()).contains("CP write could not commit", "no quorum");
        });
    assertThat(f.ops.allInstances(SERVICE)).isEmpty();
    f.ops.registerInstance(instance("10.0.0.2", 8080, true));
    assertThat(f.ops.allInstances(SERVICE)).as("AP writes go on").hasSize(1);
  }

  @Test
  void aLogThatNeverAnswersFailsWithinTheTimeout() {
    f.log.setMode(Mode.SILENT);
    long start = System.nanoTime();
    assertThatThrownBy(() -> f.ops.registerInstance(instance("10.0.0.1", 8080, false)))
        .isInstanceOfSatisfying(NamingException.class, e -> {
          assertThat(e.kind()).isEqualTo(NamingException.Kind.UNAVAILABLE);
          assertThat(e.getMessage()).contains("within 300 ms");
        });
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
  }

  @Test
  void linearizableListWaitsForTheReadBarrier() {
    f.ops.registerInstance(instance("10.0.0.1", 8080, false));
    assertThat(f.ops.listInstances(SERVICE, Set.of(), false, true).hosts()).hasSize(1);
    assertThat(f.log.barriers()).isEqualTo(1);
    f.ops.listInstances(SERVICE, Set.of(), false, false);
    assertThat(f.log.barriers()).as("plain reads stay local").isEqualTo(1);

    f.log.setMode(Mode.UNAVAILABLE);
    assertThatThrownBy(() -> f.ops.listInstances(SERVICE, Set.of(), false, true))
        .isInstanceOfSatisfying(NamingException.class, e -> assertThat(e.kind()).isEqualTo(NamingException.Kind.UNAVAILABLE));
    assertThat(f.ops.listInstances(SERVICE, Set.of(), false, false).hosts()).hasSize(1);
  }
}
