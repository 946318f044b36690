package dev.nacre.consensus.distro;

import java.util.List;

/**
 * The application side of the replicator (naming implements it): it learns every change that
 * peers cause to the replicated records, so that its own view (for example the registry index)
 * stays equal to the replicator's.
 *
 * <p>Local writes ({@link DistroReplicator#publish}, {@link DistroReplicator#delete}) are not
 * echoed: the caller applied them before publishing. Keys kept by a {@link RecordHome} never
 * reach the handler: the home applies peers' records itself.
 *
 * <p>Calls come from the replicator's single thread, one at a time, in the order the changes
 * happened, so an implementation needs no lock against itself. They must be quick and must not
 * block: replication waits for them. An exception is logged and the replicator goes on; the
 * handler's view may then differ until the owner next rewrites the key.
 */
public interface DistroHandler {

  /**
   * Records received from peers that replaced what this member held. A live record sets the
   * key's value (the owner may differ from the previous one's: the key was re-owned); a
   * tombstone deletes the key.
   */
  void apply(List<DistroRecord> records);

  /**
   * Live records dropped without a replacement, as they were held: their owner no longer has
   * them (verify repair), or their owner stayed DOWN for the grace period. Delete these keys.
   */
  void remove(List<DistroRecord> records);

  /** Called once, when the initial load finished (or timed out) and the replicator is ready. */
  default void ready() {}
}
