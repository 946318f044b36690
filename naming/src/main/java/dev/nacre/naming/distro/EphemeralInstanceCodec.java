package dev.nacre.naming.distro;

import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.Records;
import dev.nacre.proto.naming.EphemeralInstance;
import org.apache.ratis.thirdparty.com.google.protobuf.InvalidProtocolBufferException;

/**
 * Encodes the value Distro replicates for an ephemeral instance as the protobuf message
 * {@code nacre.naming.EphemeralInstance}: the whole instance (weight, health, enabled, metadata).
 * Stateless and thread-safe.
 */
public final class EphemeralInstanceCodec {
  private EphemeralInstanceCodec() {}

  /** As {@link #encode(Instance, boolean)} for an instance a client connection keeps alive. */
  public static byte[] encode(Instance instance) {
    return encode(instance, false);
  }

  /** @param keptByBeats beats keep the instance alive (HTTP), not a client connection (gRPC) */
  public static byte[] encode(Instance instance, boolean keptByBeats) {
    if (!instance.ephemeral()) {
      throw new IllegalArgumentException("only ephemeral instances are replicated by Distro: "
          + instance.key().instanceId());
    }
    return EphemeralInstance.newBuilder()
        .setId(Records.toProto(instance.key()))
        .setWeight(instance.weight())
        .setHealthy(instance.healthy())
        .setEnabled(instance.enabled())
        .putAllMetadata(instance.metadata())
        .setKeptByBeats(keptByBeats)
        .build()
        .toByteArray();
  }

  /**
   * Decodes the value of the record with Distro key {@code distroKey}.
   *
   * @throws ReplicatedValueException when the bytes are not an instance, or name another
   *     instance than the key does
   */
  public static Instance decode(String distroKey, byte[] value) {
    return decodeReplica(distroKey, value).instance();
  }

  /** A decoded value: the instance, and whether beats keep it alive (see {@link #encode(Instance, boolean)}). */
  public record Replica(Instance instance, boolean keptByBeats) {}

  /**
   * Whether beats keep alive the instance of this value (see {@link #encode(Instance, boolean)}),
   * without building the instance: a restarting member asks it of each record it owned.
   */
  public static boolean keptByBeats(String distroKey, byte[] value) {
    return parse(distroKey, value).getKeptByBeats();
  }

  private static EphemeralInstance parse(String distroKey, byte[] value) {
    try {
      return EphemeralInstance.parseFrom(value);
    } catch (InvalidProtocolBufferException e) {
      throw new ReplicatedValueException("value of " + DistroKeys.abbreviate(distroKey)
          + " is not an EphemeralInstance message (" + value.length + " bytes): " + e.getMessage(), e);
    }
  }

  /** As {@link #decode}, with how the instance is kept alive. */
  public static Replica decodeReplica(String distroKey, byte[] value) {
    InstanceKey key = DistroKeys.parseInstanceKey(distroKey);
    EphemeralInstance message = parse(distroKey, value);
    if (!message.hasId() || !Records.fromProto(message.getId()).equals(key)) {
      throw new ReplicatedValueException("value of " + DistroKeys.abbreviate(distroKey)
          + " names another instance: " + (message.hasId() ? Records.fromProto(message.getId()) : "none"));
    }
    double weight = message.getWeight();
    if (!Double.isFinite(weight) || weight < 0) {
      throw new ReplicatedValueException("value of " + DistroKeys.abbreviate(distroKey)
          + " has an impossible weight " + weight);
    }
    return new Replica(new Instance(key, weight, message.getHealthy(), message.getEnabled(), true,
        message.getMetadataMap()), message.getKeptByBeats());
  }
}
