package dev.nacre.naming.ephemeral;

import dev.nacre.naming.model.InstanceKey;
import java.util.Optional;

/**
 * Hears about every change this node makes to its ephemeral store (registration, beat that
 * revived, health change, removal, takeover of a replica), e.g. to queue it for replication.
 * Plain beats that change nothing but the last-beat time are not reported, nor are replicas that
 * replication puts into or removes from the store (they are other members' changes).
 */
@FunctionalInterface
public interface EphemeralChangeListener {
  /**
   * Called while the key is locked, so that calls for one key arrive in the order of the changes.
   * Must be quick (enqueue and return) and must not call back into the store.
   *
   * @param record the new record, empty when the instance was removed
   */
  void onLocalChange(InstanceKey key, Optional<EphemeralRecord> record);
}
