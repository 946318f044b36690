package dev.nacre.node.api;

import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.model.Beat;
import dev.nacre.naming.model.BeatResult;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.InstancePatch;
import java.util.concurrent.CompletableFuture;

/**
 * The ephemeral writes and beats of the Open API (v1 and v2): applied by the member responsible
 * for their service, which owns the records. The member a client called checks the parameters
 * and answers in the client's API; only the operation travels. A refusal comes back as the
 * registry's {@link dev.nacre.naming.api.NamingException}, as if it had been refused here.
 */
public interface EphemeralWrites {
  void register(Instance instance);

  void patch(InstanceKey key, InstancePatch patch);

  BeatResult beat(Beat beat);

  /**
   * {@link #register} for a caller that must not wait (an event loop): completes when the write is
   * applied, with its refusal if refused. Applied at once here; a forwarding implementation
   * completes it from the responsible member's answer.
   */
  default CompletableFuture<Void> registerAsync(Instance instance) {
    try {
      register(instance);
      return CompletableFuture.completedFuture(null);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * Deregisters; completes when applied, with its refusal if refused. Nothing waits: the future
   * also covers the end of the instance's operator override (a Raft commit).
   */
  CompletableFuture<Void> deregisterAsync(InstanceKey key);

  /** {@link #beat} for a caller that must not wait; see {@link #registerAsync}. */
  default CompletableFuture<BeatResult> beatAsync(Beat beat) {
    try {
      return CompletableFuture.completedFuture(beat(beat));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** Applied by this member: a standalone node, or the responsible member itself. */
  static EphemeralWrites local(NamingOperations naming) {
    return new EphemeralWrites() {
      @Override
      public void register(Instance instance) {
        naming.registerInstance(instance);
      }

      @Override
      public CompletableFuture<Void> deregisterAsync(InstanceKey key) {
        return naming.deregisterInstanceAsync(key, true);
      }

      @Override
      public void patch(InstanceKey key, InstancePatch patch) {
        naming.patchInstance(key, true, patch);
      }

      @Override
      public BeatResult beat(Beat beat) {
        return naming.beat(beat);
      }
    };
  }
}
