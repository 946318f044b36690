package dev.nacre.naming.ephemeral;

import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;

/**
 * One ephemeral instance as its owner keeps it, in the shape Distro will replicate: keyed by
 * instance, stamped with the owning node and a revision that grows with every change there.
 *
 * @param ownerNodeId node that accepted the registration (or took the instance over) and runs its
 *     heartbeat checks; another member's id for a replica
 * @param revision the owner's Distro revision of the record: increases with every change there
 * @param lastBeatMillis clock millis of the last registration or beat on the owner; on a replica,
 *     when the replica was last written here (replicas are never checked)
 * @param clientId on the owner, the client connection (gRPC) the instance lives and dies with;
 *     {@link #OWNER_CONNECTION} on a replica of such an instance; empty for beat-driven (HTTP)
 *     instances, on the owner and on replicas. The id itself is never replicated.
 */
public record EphemeralRecord(
    Instance instance, String ownerNodeId, long revision, long lastBeatMillis, String clientId)
    implements HeldRecord {

  /**
   * The client id of a replica whose instance a client connection keeps alive on its owner: this
   * member does not know the connection, only that it was one (an owner that restarts takes back
   * beat-driven instances only).
   */
  public static final String OWNER_CONNECTION = "(a client connection on the owner)";

  public EphemeralRecord {
    java.util.Objects.requireNonNull(clientId, "clientId");
  }

  /** A beat-driven record: no client connection. */
  public EphemeralRecord(Instance instance, String ownerNodeId, long revision, long lastBeatMillis) {
    this(instance, ownerNodeId, revision, lastBeatMillis, "");
  }

  /** True when a client connection owns the instance: beats and their timeouts do not apply. */
  public boolean connectionOwned() {
    return !clientId.isEmpty();
  }

  public InstanceKey key() {
    return instance.key();
  }
}
