package dev.nacre.node.cluster.distro;

import dev.nacre.consensus.distro.DistroBatch;
import dev.nacre.consensus.distro.DistroRecord;
import dev.nacre.consensus.distro.DistroSnapshot;
import dev.nacre.consensus.distro.OwnerDigest;
import dev.nacre.consensus.distro.SnapshotRequest;
import dev.nacre.proto.peer.SnapshotScope;
import java.util.Optional;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

/** Converts Distro values to and from their peer-protocol messages. */
public final class DistroMessages {
  private DistroMessages() {}

  public static dev.nacre.proto.peer.DistroRecord toProto(DistroRecord r) {
    return dev.nacre.proto.peer.DistroRecord.newBuilder()
        .setKey(r.key()).setOwner(r.owner()).setRevision(r.revision())
        .setValue(ByteString.copyFrom(r.value())).setTombstone(r.tombstone()).build();
  }

  /** Throws {@link IllegalArgumentException} for a record no member could have written. */
  public static DistroRecord fromProto(dev.nacre.proto.peer.DistroRecord p) {
    return new DistroRecord(p.getKey(), p.getOwner(), p.getRevision(), p.getValue().toByteArray(), p.getTombstone());
  }

  public static dev.nacre.proto.peer.DistroBatch toProto(DistroBatch b) {
    var builder = dev.nacre.proto.peer.DistroBatch.newBuilder().setSender(b.sender()).setSequence(b.sequence());
    b.records().forEach(r -> builder.addRecords(toProto(r)));
    b.digest().ifPresent(d -> builder.setDigest(dev.nacre.proto.peer.OwnerDigest.newBuilder()
        .setOwner(d.owner()).setCount(d.count()).setChecksum(d.checksum())));
    return builder.build();
  }

  public static DistroBatch fromProto(dev.nacre.proto.peer.DistroBatch p) {
    Optional<OwnerDigest> digest = p.hasDigest()
        ? Optional.of(new OwnerDigest(p.getDigest().getOwner(), p.getDigest().getCount(), p.getDigest().getChecksum()))
        : Optional.empty();
    return new DistroBatch(p.getSender(), p.getSequence(),
        p.getRecordsList().stream().map(DistroMessages::fromProto).toList(), digest);
  }

  public static dev.nacre.proto.peer.SnapshotRequest toProto(SnapshotRequest r) {
    return dev.nacre.proto.peer.SnapshotRequest.newBuilder()
        .setRequester(r.requester()).setScope(scope(r.scope())).build();
  }

  public static SnapshotRequest fromProto(dev.nacre.proto.peer.SnapshotRequest p) {
    return new SnapshotRequest(p.getRequester(), scope(p.getScope()));
  }

  public static dev.nacre.proto.peer.DistroSnapshot toProto(DistroSnapshot s) {
    var builder = dev.nacre.proto.peer.DistroSnapshot.newBuilder()
        .setSender(s.sender()).setScope(scope(s.scope())).setHighWaterRevision(s.highWaterRevision());
    s.records().forEach(r -> builder.addRecords(toProto(r)));
    return builder.build();
  }

  public static DistroSnapshot fromProto(dev.nacre.proto.peer.DistroSnapshot p) {
    return new DistroSnapshot(p.getSender(), scope(p.getScope()), p.getHighWaterRevision(),
        p.getRecordsList().stream().map(DistroMessages::fromProto).toList());
  }

  public static SnapshotScope scope(SnapshotRequest.Scope s) {
    return s == SnapshotRequest.Scope.ALL ? SnapshotScope.ALL : SnapshotScope.OWNED;
  }

  private static SnapshotRequest.Scope scope(SnapshotScope s) {
    return switch (s) {
      case ALL -> SnapshotRequest.Scope.ALL;
      case OWNED -> SnapshotRequest.Scope.OWNED;
      case UNRECOGNIZED -> throw new IllegalArgumentException("unknown snapshot scope");
    };
  }
}
