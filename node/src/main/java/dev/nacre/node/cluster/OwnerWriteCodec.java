package dev.nacre.node.cluster;

import dev.nacre.naming.api.Completions;
import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.model.Beat;
import dev.nacre.naming.model.BeatResult;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.InstancePatch;
import dev.nacre.naming.persistent.Records;
import dev.nacre.node.api.EphemeralWrites;
import dev.nacre.proto.naming.InstanceRecord;
import dev.nacre.proto.peer.BeatWrite;
import dev.nacre.proto.peer.InstancePatchWrite;
import dev.nacre.proto.peer.OwnerWrite;
import dev.nacre.proto.peer.OwnerWriteResult;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** {@link OwnerWrite}s to and from the registry's types, and the owner's side: applying one. */
final class OwnerWriteCodec {
  private OwnerWriteCodec() {}

  static OwnerWrite register(String from, Instance instance) {
    return OwnerWrite.newBuilder().setFrom(from).setRegister(Records.toRecord(instance)).build();
  }

  static OwnerWrite deregister(String from, InstanceKey key) {
    return OwnerWrite.newBuilder().setFrom(from).setDeregister(Records.toProto(key)).build();
  }

  static OwnerWrite patch(String from, InstanceKey key, InstancePatch patch) {
    InstancePatchWrite.Builder b = InstancePatchWrite.newBuilder().setId(Records.toProto(key));
    patch.weight().ifPresent(b::setWeight);
    patch.enabled().ifPresent(b::setEnabled);
    patch.healthy().ifPresent(b::setHealthy);
    patch.metadata().ifPresent(m -> b.setHasMetadata(true).putAllMetadata(m));
    return OwnerWrite.newBuilder().setFrom(from).setPatch(b).build();
  }

  static OwnerWrite beat(String from, Beat beat) {
    BeatWrite.Builder b = BeatWrite.newBuilder().setId(Records.toProto(beat.key()));
    beat.fullInstance().ifPresent(i -> b.setInstance(Records.toRecord(i)));
    return OwnerWrite.newBuilder().setFrom(from).setBeat(b).build();
  }

  /** {@link #applyAsync} for the writes that are applied before it returns. */
  private static OwnerWriteResult apply(OwnerWrite write, EphemeralWrites local) {
    OwnerWriteResult.Builder result = OwnerWriteResult.newBuilder();
    try {
      switch (write.getWriteCase()) {
        case REGISTER -> local.register(ephemeral(write.getRegister()));
        case DEREGISTER -> throw new IllegalStateException("a deregistration is applied through its future");
        case PATCH -> local.patch(Records.fromProto(write.getPatch().getId()), patchOf(write.getPatch()));
        case BEAT -> {
          BeatWrite b = write.getBeat();
          BeatResult beat = local.beat(new Beat(Records.fromProto(b.getId()),
              b.hasInstance() ? Optional.of(ephemeral(b.getInstance())) : Optional.empty()));
          result.setBeatFound(beat.found()).setClientBeatIntervalMs(beat.clientBeatIntervalMillis());
        }
        case WRITE_NOT_SET -> throw NamingException.invalid("the forwarded write names no operation");
      }
    } catch (NamingException e) {
      return refused(e);
    }
    return result.build();
  }

  /**
   * Applies {@code write} on this member (the responsible one) and says how it went. A refusal of
   * the registry travels back as its kind and message; anything else is the caller's to report.
   * A deregistration answers through the future once the instance's operator override has ended
   * (a Raft commit), waiting on no thread; the other writes are applied before this returns.
   */
  static CompletableFuture<OwnerWriteResult> applyAsync(OwnerWrite write, EphemeralWrites local) {
    if (write.getWriteCase() != OwnerWrite.WriteCase.DEREGISTER) {
      return CompletableFuture.completedFuture(apply(write, local));
    }
    InstanceKey key = Records.fromProto(write.getDeregister());
    CompletableFuture<Void> done;
    try {
      done = local.deregisterAsync(key);
    } catch (NamingException e) {
      done = CompletableFuture.failedFuture(e);
    }
    return done.handle((ignored, error) -> {
      Throwable cause = Completions.cause(error);
      if (cause == null) {
        return OwnerWriteResult.getDefaultInstance();
      }
      if (cause instanceof NamingException e) {
        return refused(e);
      }
      throw new CompletionException(cause);
    });
  }

  private static OwnerWriteResult refused(NamingException e) {
    return OwnerWriteResult.newBuilder().setErrorKind(e.kind().name()).setErrorMessage(String.valueOf(e.getMessage()))
        .build();
  }

  /** The owner's refusal as the registry's exception, or the beat's answer. */
  static BeatResult outcome(OwnerWriteResult result) {
    if (!result.getErrorKind().isEmpty()) {
      NamingException.Kind kind;
      try {
        kind = NamingException.Kind.valueOf(result.getErrorKind());
      } catch (IllegalArgumentException e) {
        kind = NamingException.Kind.UNAVAILABLE; // a kind of a newer member: still a refusal
      }
      throw new NamingException(kind, result.getErrorMessage());
    }
    return new BeatResult(result.getBeatFound(), result.getClientBeatIntervalMs());
  }

  private static Instance ephemeral(InstanceRecord r) {
    Instance i = Records.fromRecord(r);
    return new Instance(i.key(), i.weight(), i.healthy(), i.enabled(), true, i.metadata());
  }

  private static InstancePatch patchOf(InstancePatchWrite p) {
    return new InstancePatch(
        p.hasWeight() ? Optional.of(p.getWeight()) : Optional.empty(),
        p.hasEnabled() ? Optional.of(p.getEnabled()) : Optional.empty(),
        p.hasHealthy() ? Optional.of(p.getHealthy()) : Optional.empty(),
        p.getHasMetadata() ? Optional.of(p.getMetadataMap()) : Optional.empty());
  }
}
