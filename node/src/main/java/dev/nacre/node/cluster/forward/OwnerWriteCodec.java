package dev.nacre.node.cluster.forward;

import dev.nacre.consensus.async.Completions;
import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.model.Beat;
import dev.nacre.naming.model.BeatResult;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.InstancePatch;
import dev.nacre.naming.model.Records;
import dev.nacre.naming.writes.EphemeralWrites;
import dev.nacre.proto.naming.InstanceRecord;
import dev.nacre.proto.peer.BeatWrite;
import dev.nacre.proto.peer.InstancePatchWrite;
import dev.nacre.proto.peer.OwnerWrite;
import dev.nacre.proto.peer.OwnerWriteResult;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** {@link OwnerWrite}s to and from the registry's types, and the owner's side: applying one. */
public final class OwnerWriteCodec {
  private OwnerWriteCodec() {}

  public static OwnerWrite register(String from, Instance instance) {
    return OwnerWrite.newBuilder().setFrom(from).setRegister(Records.toRecord(instance)).build();
  }

  public static OwnerWrite deregister(String from, InstanceKey key) {
    return OwnerWrite.newBuilder().setFrom(from).setDeregister(Records.toProto(key)).build();
  }

  public static OwnerWrite patch(String from, InstanceKey key, InstancePatch patch) {
    InstancePatchWrite.Builder b = InstancePatchWrite.newBuilder().setId(Records.toProto(key));
    patch.weight().ifPresent(b::setWeight);
    patch.enabled().ifPresent(b::setEnabled);
    patch.healthy().ifPresent(b::setHealthy);
    patch.metadata().ifPresent(m -> b.setHasMetadata(true).putAllMetadata(m));
    return OwnerWrite.newBuilder().setFrom(from).setPatch(b).build();
  }

  public static OwnerWrite beat(String from, Beat beat) {
    BeatWrite.Builder b = BeatWrite.newBuilder().setId(Records.toProto(beat.key()));
    beat.fullInstance().ifPresent(i -> b.setInstance(Records.toRecord(i)));
    return OwnerWrite.newBuilder().setFrom(from).setBeat(b).build();
  }

  /**
   * Applies {@code write} on this member (the responsible one) and says how it went. A refusal of
   * the registry travels back as its kind and message; anything else is the caller's to report.
   * Registrations and beats are applied before this returns; a deregistration answers once the
   * instance's operator override has ended (a Raft commit), waiting on no thread; a patch waits for
   * its commit here.
   */
  public static CompletableFuture<OwnerWriteResult> applyAsync(OwnerWrite write, EphemeralWrites local) {
    CompletableFuture<OwnerWriteResult> applied;
    try {
      applied = switch (write.getWriteCase()) {
        case REGISTER -> local.registerAsync(ephemeral(write.getRegister())).thenApply(OwnerWriteCodec::done);
        case DEREGISTER ->
            local.deregisterAsync(Records.fromProto(write.getDeregister())).thenApply(OwnerWriteCodec::done);
        case PATCH -> {
          local.patch(Records.fromProto(write.getPatch().getId()), patchOf(write.getPatch()));
          yield CompletableFuture.completedFuture(done(null));
        }
        case BEAT -> {
          BeatWrite b = write.getBeat();
          yield local.beatAsync(new Beat(Records.fromProto(b.getId()),
                  b.hasInstance() ? Optional.of(ephemeral(b.getInstance())) : Optional.empty()))
              .thenApply(beat -> OwnerWriteResult.newBuilder().setBeatFound(beat.found())
                  .setClientBeatIntervalMs(beat.clientBeatIntervalMillis()).build());
        }
        case WRITE_NOT_SET -> throw NamingException.invalid("the forwarded write names no operation");
      };
    } catch (NamingException e) {
      applied = CompletableFuture.failedFuture(e);
    }
    return applied.handle((result, error) -> {
      Throwable cause = Completions.cause(error);
      if (cause == null) {
        return result;
      }
      if (cause instanceof NamingException e) {
        return refused(e);
      }
      throw new CompletionException(cause);
    });
  }

  /** A write applied: nothing to say back. */
  private static OwnerWriteResult done(Void applied) {
    return OwnerWriteResult.getDefaultInstance();
  }

  private static OwnerWriteResult refused(NamingException e) {
    return OwnerWriteResult.newBuilder().setErrorKind(e.kind().name()).setErrorMessage(String.valueOf(e.getMessage()))
        .build();
  }

  /** The owner's refusal as the registry's exception, or the beat's answer. */
  public static BeatResult outcome(OwnerWriteResult result) {
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
