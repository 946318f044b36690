package dev.nacre.naming.distro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.Records;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.proto.naming.EphemeralInstance;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class EphemeralInstanceCodecTest {
  static final InstanceKey KEY =
      new InstanceKey(new ServiceKey("ns:1", "GROUP@@x", "svc:2:name"), "c:1", "fe80::1", 65535);

  @Test
  void instanceKeysRoundTripWhateverCharactersNamesHold() {
    List<InstanceKey> keys = List.of(
        KEY,
        new InstanceKey(new ServiceKey("public", "DEFAULT_GROUP", "orders"), "DEFAULT", "10.0.0.1", 8080),
        new InstanceKey(new ServiceKey("", "", ""), "", "", 0),
        new InstanceKey(new ServiceKey("命名空间", "组", "服务 ✓"), "集群", "::1", 1));
    for (InstanceKey k : keys) {
      assertThat(DistroKeys.parseInstanceKey(DistroKeys.instanceKey(k))).isEqualTo(k);
    }
  }

  @Test
  void keysThatJoinToTheSameCharactersStayDistinct() {
    ServiceKey s1 = new ServiceKey("a", "b:c", "d");
    ServiceKey s2 = new ServiceKey("a:b", "c", "d");
    ServiceKey s3 = new ServiceKey("a1", "1:b", "d");
    Set<String> seen = new HashSet<>();
    for (ServiceKey s : List.of(s1, s2, s3)) {
      assertThat(seen.add(DistroKeys.serviceKey(s))).as("service key of %s is unique", s).isTrue();
      assertThat(seen.add(DistroKeys.instanceKey(new InstanceKey(s, "1", "2", 3)))).isTrue();
      assertThat(seen.add(DistroKeys.instanceKey(new InstanceKey(s, "12", "", 3)))).isTrue();
    }
  }

  @Test
  void malformedKeysAreRejectedWithTheReason() {
    String good = DistroKeys.instanceKey(KEY);
    for (String bad : List.of("", "orders", "service:1:a1:b1:c", good.substring(0, good.length() - 6),
        good + "x", "ephemeral:99:public", "ephemeral:x:a1:b1:c1:d1:e1", "ephemeral:1:a1:b1:c1:d1:e",
        "ephemeral:1:a1:b1:c1:d1:e123456", "ephemeral:-1:a",
        // Digits of other scripts are not ASCII digits, in a length or in the port.
        "ephemeral:\u0661:a1:b1:c1:d1:e1", "ephemeral:1:a1:b1:c1:d1:e\u0668\u0660")) {
      assertThatThrownBy(() -> DistroKeys.parseInstanceKey(bad))
          .as("key %s", bad)
          .isInstanceOf(ReplicatedValueException.class)
          .hasMessageContaining("not an ephemeral instance key");
    }
  }

  @Test
  void valueRoundTripKeepsTheWholeInstance() {
    Instance instance = new Instance(KEY, 3.5, false, false, true,
        Map.of("preserved.heart.beat.timeout", "3000", "zone", "eu:1", "", ""));
    byte[] bytes = EphemeralInstanceCodec.encode(instance);
    assertThat(EphemeralInstanceCodec.decode(DistroKeys.instanceKey(KEY), bytes)).isEqualTo(instance);

    Instance plain = new Instance(KEY, 1.0, true, true, true, Map.of());
    assertThat(EphemeralInstanceCodec.decode(DistroKeys.instanceKey(KEY), EphemeralInstanceCodec.encode(plain)))
        .isEqualTo(plain);
  }

  @Test
  void valueSaysWhetherBeatsKeepTheInstanceAndOlderValuesSayNo() {
    Instance instance = new Instance(KEY, 1.0, true, true, true, Map.of());
    String key = DistroKeys.instanceKey(KEY);
    assertThat(EphemeralInstanceCodec.decodeReplica(key, EphemeralInstanceCodec.encode(instance, true)))
        .isEqualTo(new EphemeralInstanceCodec.Replica(instance, true));
    assertThat(EphemeralInstanceCodec.decodeReplica(key, EphemeralInstanceCodec.encode(instance, false)).keptByBeats())
        .isFalse();
    // A member that predates the field sends the message without it.
    byte[] older = EphemeralInstance.newBuilder().setId(Records.toProto(KEY)).setWeight(1.0).build().toByteArray();
    assertThat(EphemeralInstanceCodec.decodeReplica(key, older).keptByBeats()).isFalse();
    assertThat(EphemeralInstanceCodec.keptByBeats(key, EphemeralInstanceCodec.encode(instance, true))).isTrue();
    assertThat(EphemeralInstanceCodec.keptByBeats(key, older)).isFalse();
    assertThatThrownBy(() -> EphemeralInstanceCodec.keptByBeats(key, new byte[] {(byte) 0xff}))
        .isInstanceOf(ReplicatedValueException.class);
  }

  @Test
  void persistentInstancesAreNotEncoded() {
    assertThatThrownBy(() -> EphemeralInstanceCodec.encode(new Instance(KEY, 1, true, true, false, Map.of())))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void garbageAndMismatchedValuesAreRejected() {
    String key = DistroKeys.instanceKey(KEY);
    InstanceKey other = new InstanceKey(KEY.service(), KEY.cluster(), KEY.ip(), 1);
    byte[] otherInstance = EphemeralInstanceCodec.encode(new Instance(other, 1, true, true, true, Map.of()));
    byte[] valid = EphemeralInstanceCodec.encode(new Instance(KEY, 1, true, true, true, Map.of()));
    byte[] truncated = java.util.Arrays.copyOf(valid, valid.length - 3);
    for (byte[] bad : List.of(new byte[0], "hello, world".getBytes(StandardCharsets.UTF_8),
        new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff}, otherInstance, truncated)) {
      assertThatThrownBy(() -> EphemeralInstanceCodec.decode(key, bad))
          .isInstanceOf(ReplicatedValueException.class)
          .hasMessageContaining("value of ");
    }
    byte[] negativeWeight = EphemeralInstanceCodec.encode(new Instance(KEY, -1, true, true, true, Map.of()));
    assertThatThrownBy(() -> EphemeralInstanceCodec.decode(key, negativeWeight))
        .isInstanceOf(ReplicatedValueException.class).hasMessageContaining("weight");
  }

  @Test
  void randomBytesNeverEscapeAsAnythingButTheTypedError() {
    Random random = new Random(42);
    String key = DistroKeys.instanceKey(KEY);
    for (int i = 0; i < 2_000; i++) {
      byte[] bytes = new byte[random.nextInt(64)];
      random.nextBytes(bytes);
      try {
        Instance decoded = EphemeralInstanceCodec.decode(key, bytes);
        assertThat(decoded.key()).as("seed 42, round %d", i).isEqualTo(KEY);
      } catch (ReplicatedValueException expected) {
        // the only failure allowed
      }
    }
  }
}
