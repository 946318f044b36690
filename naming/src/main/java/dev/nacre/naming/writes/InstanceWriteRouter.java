package dev.nacre.naming.writes;

import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.model.Beat;
import dev.nacre.naming.model.BeatResult;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.InstancePatch;
import dev.nacre.naming.model.ServiceKey;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The one place where an instance write of any client port is routed by its kind: a persistent
 * instance goes through the replicated log (any member submits it); an ephemeral one goes to the
 * member that owns it, which is the member holding the client's connection for a Nacos 2.x client
 * and the member responsible for the service ({@link EphemeralWrites}) for the Open API's
 * registrations and beats. The ports parse and answer; they do not choose where a write applies.
 * Thread-safe; nothing here blocks except {@link #patch} and {@link #update}, which wait for the
 * operator override's Raft commit as the registry's own calls do.
 */
public final class InstanceWriteRouter {
  private final NamingOperations registry;
  private final EphemeralWrites owners;

  /**
   * @param registry this member's registry: the replicated log for persistent writes, and the
   *     ephemeral store for the instances this member owns
   * @param owners where the Open API's ephemeral writes are applied: this member alone, or the
   *     peer transport to the member responsible for the service
   */
  public InstanceWriteRouter(NamingOperations registry, EphemeralWrites owners) {
    this.registry = registry;
    this.owners = owners;
  }

  /** An Open API registration: completes once applied by its owner or committed by the log. */
  public CompletableFuture<Void> register(Instance instance) {
    return instance.ephemeral() ? owners.registerAsync(instance) : registry.registerInstanceAsync(instance);
  }

  /** An Open API deregistration, as {@link #register}. */
  public CompletableFuture<Void> deregister(InstanceKey key, boolean ephemeral) {
    return ephemeral ? owners.deregisterAsync(key) : registry.deregisterInstanceAsync(key, false);
  }

  /** A 1.x client's beat, answered by the member that owns the instance. */
  public CompletableFuture<BeatResult> beat(Beat beat) {
    return owners.beatAsync(beat);
  }

  /** An operator's patch: an ephemeral instance's override (kept at its owner), or the persistent record. */
  public void patch(InstanceKey key, boolean ephemeral, InstancePatch patch) {
    if (ephemeral) {
      owners.patch(key, patch);
    } else {
      registry.patchInstance(key, false, patch);
    }
  }

  /**
   * Nacos' update: a persistent instance is replaced whole by {@code replacement}; an ephemeral
   * one gets {@code override} as its operator override, so the fields it does not name stay the
   * client's. Each supplier is read only on its own path (they parse different parameters).
   */
  public void update(boolean ephemeral, InstanceKey key, Supplier<Instance> replacement,
      Supplier<InstancePatch> override) {
    if (ephemeral) {
      owners.patch(key, override.get());
    } else {
      registry.updateInstance(replacement.get());
    }
  }

  /**
   * A registration over a client connection: an ephemeral instance belongs to the connection and
   * so to this member (it goes when the connection closes); a persistent one goes through the log.
   */
  public CompletableFuture<Void> registerForConnection(String connectionId, Instance instance) {
    if (!instance.ephemeral()) {
      return registry.registerInstanceAsync(instance);
    }
    registry.registerClientInstance(connectionId, instance);
    return CompletableFuture.completedFuture(null);
  }

  /**
   * A client's batch: the connection's ephemeral instances of {@code service} become
   * {@code instances} (all ephemeral: a batch holds no persistent instance).
   */
  public void replaceForConnection(String connectionId, ServiceKey service, List<Instance> instances) {
    registry.replaceClientInstances(connectionId, service, instances);
  }

  /** A deregistration over a client connection, as {@link #registerForConnection}. */
  public CompletableFuture<Void> deregisterForConnection(String connectionId, Instance instance) {
    if (!instance.ephemeral()) {
      return registry.deregisterInstanceAsync(instance.key(), false);
    }
    registry.deregisterClientInstance(connectionId, instance.key());
    return CompletableFuture.completedFuture(null);
  }
}
