package dev.nacre.naming.ephemeral;

import dev.nacre.consensus.distro.RecordStamp;

/**
 * What the ephemeral store holds for one instance key: the instance ({@link EphemeralRecord}) or
 * the record of its deletion ({@link EphemeralTombstone}), kept a while so that an older copy
 * arriving late from a peer does not bring the instance back.
 */
public sealed interface HeldRecord permits EphemeralRecord, EphemeralTombstone {
  /** The member that wrote this record. */
  String ownerNodeId();

  /** The owner's Distro revision of the record. */
  long revision();

  /** Replication's view of the record. */
  default RecordStamp stamp() {
    return new RecordStamp(ownerNodeId(), revision(), this instanceof EphemeralTombstone);
  }
}
