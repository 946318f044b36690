package dev.nacre.naming.model;

import dev.nacre.naming.model.ClusterInfo;
import dev.nacre.naming.model.HealthCheckType;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.InstanceOverride;
import dev.nacre.naming.model.Namespace;
import dev.nacre.naming.model.ServiceInfo;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.proto.naming.ClusterRecord;
import dev.nacre.proto.naming.HealthCheckerType;
import dev.nacre.proto.naming.InstanceId;
import dev.nacre.proto.naming.InstanceOverrideRecord;
import dev.nacre.proto.naming.InstanceRecord;
import dev.nacre.proto.naming.NamespaceRecord;
import dev.nacre.proto.naming.ServiceId;
import dev.nacre.proto.naming.ServiceRecord;
import java.util.Optional;

/** Conversions between the model and the protobuf records of the log and of RocksDB. */
public final class Records {
  private Records() {}

  public static ServiceId toProto(ServiceKey key) {
    return ServiceId.newBuilder()
        .setNamespaceId(key.namespaceId())
        .setGroup(key.group())
        .setName(key.name())
        .build();
  }

  public static ServiceKey fromProto(ServiceId id) {
    return new ServiceKey(id.getNamespaceId(), id.getGroup(), id.getName());
  }

  public static InstanceId toProto(InstanceKey key) {
    return InstanceId.newBuilder()
        .setService(toProto(key.service()))
        .setCluster(key.cluster())
        .setIp(key.ip())
        .setPort(key.port())
        .build();
  }

  public static InstanceKey fromProto(InstanceId id) {
    return new InstanceKey(fromProto(id.getService()), id.getCluster(), id.getIp(), id.getPort());
  }

  public static InstanceRecord toRecord(Instance instance) {
    return InstanceRecord.newBuilder()
        .setId(toProto(instance.key()))
        .setWeight(instance.weight())
        .setEnabled(instance.enabled())
        .setHealthy(instance.healthy())
        .putAllMetadata(instance.metadata())
        .build();
  }

  /** A persistent instance with the health its registration asked for. */
  public static Instance fromRecord(InstanceRecord r) {
    return new Instance(
        fromProto(r.getId()), r.getWeight(), r.getHealthy(), r.getEnabled(), false, r.getMetadataMap());
  }

  public static ServiceRecord toRecord(ServiceInfo info) {
    return ServiceRecord.newBuilder()
        .setId(toProto(info.key()))
        .setProtectThreshold(info.protectThreshold())
        .putAllMetadata(info.metadata())
        .setSelector(info.selector())
        .build();
  }

  public static ServiceInfo fromRecord(ServiceRecord r) {
    return new ServiceInfo(
        fromProto(r.getId()), r.getProtectThreshold(), r.getMetadataMap(), r.getSelector());
  }

  public static NamespaceRecord toRecord(Namespace ns) {
    return NamespaceRecord.newBuilder()
        .setId(ns.id())
        .setName(ns.name())
        .setDescription(ns.description())
        .build();
  }

  public static Namespace fromRecord(NamespaceRecord r) {
    return new Namespace(r.getId(), r.getName(), r.getDescription());
  }

  public static ClusterRecord toRecord(ClusterInfo c) {
    return ClusterRecord.newBuilder()
        .setService(toProto(c.service()))
        .setName(c.name())
        .setChecker(HealthCheckerType.valueOf(c.checkType().name()))
        .setHttpPath(c.httpPath())
        .setCheckPort(c.checkPort())
        .setUseInstancePort(c.useInstancePort())
        .putAllMetadata(c.metadata())
        .build();
  }

  public static ClusterInfo fromRecord(ClusterRecord r) {
    HealthCheckType type =
        r.getChecker() == HealthCheckerType.UNRECOGNIZED
            ? HealthCheckType.TCP
            : HealthCheckType.valueOf(r.getChecker().name());
    return new ClusterInfo(
        fromProto(r.getService()), r.getName(), type, r.getHttpPath(), r.getCheckPort(),
        r.getUseInstancePort(), r.getMetadataMap());
  }

  public static InstanceOverrideRecord toRecord(InstanceOverride o) {
    InstanceOverrideRecord.Builder b = InstanceOverrideRecord.newBuilder()
        .setId(toProto(o.key()))
        .setRevision(o.revision());
    o.weight().ifPresent(b::setWeight);
    o.enabled().ifPresent(b::setEnabled);
    o.metadata().ifPresent(m -> b.setHasMetadata(true).putAllMetadata(m));
    return b.build();
  }

  public static InstanceOverride fromRecord(InstanceOverrideRecord r) {
    return new InstanceOverride(
        fromProto(r.getId()),
        r.hasWeight() ? Optional.of(r.getWeight()) : Optional.empty(),
        r.hasEnabled() ? Optional.of(r.getEnabled()) : Optional.empty(),
        r.getHasMetadata() ? Optional.of(r.getMetadataMap()) : Optional.empty(),
        r.getRevision());
  }
}
