package dev.nacre.naming.registry;

import static dev.nacre.naming.support.NamingFixture.instance;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.naming.model.Instance;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class InstanceTreeTest {
  private static InstanceTree of(List<Instance> instances) {
    InstanceTree t = InstanceTree.EMPTY;
    for (Instance i : instances) {
      t = t.with(i);
    }
    return t;
  }

  private static List<Instance> instances(int n) {
    List<Instance> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(instance("10.0." + i / 250 + "." + i % 250, 8080, false));
    }
    return out;
  }

  @Test
  void theSameInstancesInAnyOrderAreTheSame() {
    List<Instance> all = instances(2_000);
    List<Instance> shuffled = new ArrayList<>(all);
    Collections.shuffle(shuffled, new Random(7));
    // Separately built: no subtree is shared, every node is compared.
    assertThat(of(all).sameInstances(of(shuffled))).isTrue();
  }

  @Test
  void oneChangedValueOrOneOtherKeyIsADifference() {
    List<Instance> all = instances(2_000);
    InstanceTree tree = of(all);
    Instance some = all.get(1_234);
    Instance heavier = new Instance(some.key(), 2.0, some.healthy(), some.enabled(), some.ephemeral(), Map.of());
    assertThat(tree.sameInstances(tree.with(heavier))).isFalse();
    assertThat(of(all).with(heavier).sameInstances(tree)).isFalse();

    InstanceTree moved = tree.without(some.key()).with(instance("10.9.9.9", 8080, false));
    assertThat(moved.size()).isEqualTo(tree.size());
    assertThat(tree.sameInstances(moved)).isFalse();
    assertThat(moved.sameInstances(tree)).isFalse();
  }

  @Test
  void keysOfEqualPriorityShapedApartByTheirOrderAreStillTheSame() {
    // A priority hashes ip.hashCode() * 31 + port: "10.0.0.2" hashes one above "10.0.0.1", so
    // port 80 there and port 111 here collide, and the first inserted becomes the parent.
    Instance a = instance("10.0.0.2", 80, false);
    Instance b = instance("10.0.0.1", 111, false);
    List<Instance> others = new ArrayList<>(); // none sorts between them: one is the other's parent
    for (int i = 0; i < 300; i++) {
      others.add(instance("10.1." + i / 250 + "." + i % 250, 8080, false));
    }
    List<Instance> ab = new ArrayList<>(others);
    ab.add(a);
    ab.add(b);
    List<Instance> ba = new ArrayList<>(others);
    ba.add(b);
    ba.add(a);
    assertThat(of(ab).sameInstances(of(ba))).isTrue();
    Instance heavierB = new Instance(b.key(), 3.0, true, true, false, Map.of());
    assertThat(of(ab).sameInstances(of(ba).with(heavierB))).isFalse();
  }
}
