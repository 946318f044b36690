package dev.nacre.naming.distro;

import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.Records;
import dev.nacre.proto.naming.PersistentHealth;
import org.apache.ratis.thirdparty.com.google.protobuf.InvalidProtocolBufferException;

/**
 * Encodes the value Distro replicates for a persistent instance's probed health as the protobuf
 * message {@code nacre.naming.PersistentHealth}. Stateless and thread-safe.
 */
final class PersistentHealthCodec {
  /** A decoded health record: the instance, its health, and when the prober found it. */
  record ProbedHealth(InstanceKey key, boolean healthy, long probedAtMillis) {}

  private PersistentHealthCodec() {}

  static byte[] encode(InstanceKey key, boolean healthy, long probedAtMillis) {
    return PersistentHealth.newBuilder()
        .setId(Records.toProto(key))
        .setHealthy(healthy)
        .setProbedAtMillis(probedAtMillis)
        .build()
        .toByteArray();
  }

  /**
   * Decodes the value of the record with Distro key {@code distroKey}.
   *
   * @throws ReplicatedValueException when the key is not a health key, the bytes are not a
   *     health message, or they name another instance than the key does
   */
  static ProbedHealth decode(String distroKey, byte[] value) {
    InstanceKey key = DistroKeys.parseHealthKey(distroKey);
    PersistentHealth message;
    try {
      message = PersistentHealth.parseFrom(value);
    } catch (InvalidProtocolBufferException e) {
      throw new ReplicatedValueException("value of " + DistroKeys.abbreviate(distroKey)
          + " is not a PersistentHealth message (" + value.length + " bytes): " + e.getMessage(), e);
    }
    if (!message.hasId() || !Records.fromProto(message.getId()).equals(key)) {
      throw new ReplicatedValueException("value of " + DistroKeys.abbreviate(distroKey)
          + " names another instance: " + (message.hasId() ? Records.fromProto(message.getId()) : "none"));
    }
    return new ProbedHealth(key, message.getHealthy(), message.getProbedAtMillis());
  }
}
