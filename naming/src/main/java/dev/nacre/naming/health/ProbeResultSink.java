package dev.nacre.naming.health;

import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.registry.RegistryIndex;

/**
 * Where {@link PersistentHealthProber} puts each probe result. Standalone it only sets the soft
 * health in the local index ({@link #localOnly}); in a cluster the replication side also tells
 * the other members ({@code EphemeralReplication.persistentHealth()} in {@code naming.distro}).
 *
 * <p>Implementations are called from several probe threads at once, never twice at the same time
 * for one instance, and must not block on the network.
 */
@FunctionalInterface
public interface ProbeResultSink {

  /**
   * Takes the result of one probe of a persistent instance. An instance no longer in the index is
   * left alone: probes never create or delete instances.
   *
   * @return whether the local index's health changed (for the log line)
   */
  boolean probed(InstanceKey key, boolean healthy);

  /** Sets the health in {@code index} only: what a standalone node does. */
  static ProbeResultSink localOnly(RegistryIndex index) {
    return (key, healthy) -> index.setHealth(key, false, healthy);
  }
}
