package dev.nacre.naming.writes;

import dev.nacre.consensus.async.Completions;
import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.model.Beat;
import dev.nacre.naming.model.BeatResult;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.InstancePatch;
import java.util.concurrent.CompletableFuture;

/**
 * The ephemeral writes and beats that the member responsible for their service applies, since it
 * owns the records: {@link #local} applies them here; the peer transport implements this interface
 * to send them to the responsible member, whose own {@link #local} applies them. The member a
 * client called checks the parameters and answers in the client's API; only the operation
 * travels. A refusal comes back as the registry's {@link dev.nacre.naming.api.NamingException},
 * as if it had been refused here. {@link InstanceWriteRouter} is the only caller on the API side.
 */
public interface EphemeralWrites {
  /**
   * Registers; completes when the write is applied, with its refusal if refused. Nothing waits: a
   * forwarding implementation completes it from the responsible member's answer.
   */
  CompletableFuture<Void> registerAsync(Instance instance);

  /**
   * Deregisters, as {@link #registerAsync}; the future also covers the end of the instance's
   * operator override (a Raft commit).
   */
  CompletableFuture<Void> deregisterAsync(InstanceKey key);

  /** Beats, as {@link #registerAsync}; the answer says whether the instance was known. */
  CompletableFuture<BeatResult> beatAsync(Beat beat);

  /** Records an operator's patch as the instance's override: waits for its Raft commit. */
  void patch(InstanceKey key, InstancePatch patch);

  /** Applied by this member: a standalone node, or the responsible member itself. */
  static EphemeralWrites local(NamingOperations naming) {
    return new EphemeralWrites() {
      @Override
      public CompletableFuture<Void> registerAsync(Instance instance) {
        return Completions.start(() -> {
          naming.registerInstance(instance); // memory only, for an ephemeral instance
          return CompletableFuture.completedFuture(null);
        });
      }

      @Override
      public CompletableFuture<Void> deregisterAsync(InstanceKey key) {
        return Completions.start(() -> naming.deregisterInstanceAsync(key, true));
      }

      @Override
      public CompletableFuture<BeatResult> beatAsync(Beat beat) {
        return Completions.start(() -> CompletableFuture.completedFuture(naming.beat(beat)));
      }

      @Override
      public void patch(InstanceKey key, InstancePatch patch) {
        naming.patchInstance(key, true, patch);
      }
    };
  }
}
