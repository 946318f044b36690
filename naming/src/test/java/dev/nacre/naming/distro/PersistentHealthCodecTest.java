package dev.nacre.naming.distro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class PersistentHealthCodecTest {
  static final InstanceKey KEY =
      new InstanceKey(new ServiceKey("ns:1", "G@@x", "svc:2"), "c:1", "10.0.0.1", 8080);

  @Test
  void healthAndInstanceKeysLiveInSeparateNamespaces() {
    String health = DistroKeys.healthKey(KEY);
    String instance = DistroKeys.instanceKey(KEY);
    assertThat(health).startsWith("health:").isNotEqualTo(instance);
    assertThat(DistroKeys.parseHealthKey(health)).isEqualTo(KEY);
    assertThat(DistroKeys.isHealthKey(health)).isTrue();
    assertThat(DistroKeys.isHealthKey(instance)).isFalse();
    assertThatThrownBy(() -> DistroKeys.parseInstanceKey(health))
        .isInstanceOf(ReplicatedValueException.class).hasMessageContaining("not an ephemeral instance key");
    assertThatThrownBy(() -> DistroKeys.parseHealthKey(instance))
        .isInstanceOf(ReplicatedValueException.class).hasMessageContaining("not a persistent instance health key");
  }

  @Test
  void roundTripsAndChecksTheKey() {
    byte[] value = PersistentHealthCodec.encode(KEY, false, 1234);
    PersistentHealthCodec.ProbedHealth h = PersistentHealthCodec.decode(DistroKeys.healthKey(KEY), value);
    assertThat(h).isEqualTo(new PersistentHealthCodec.ProbedHealth(KEY, false, 1234));

    InstanceKey other = new InstanceKey(KEY.service(), KEY.cluster(), KEY.ip(), 9090);
    assertThatThrownBy(() -> PersistentHealthCodec.decode(DistroKeys.healthKey(other), value))
        .isInstanceOf(ReplicatedValueException.class).hasMessageContaining("names another instance");
    assertThatThrownBy(() -> PersistentHealthCodec.decode(DistroKeys.healthKey(KEY), new byte[] {(byte) 0xff}))
        .isInstanceOf(ReplicatedValueException.class).hasMessageContaining("not a PersistentHealth message");
    assertThatThrownBy(() -> PersistentHealthCodec.decode(DistroKeys.healthKey(KEY), new byte[0]))
        .isInstanceOf(ReplicatedValueException.class).hasMessageContaining("names another instance: none");
  }
}
