package dev.nacre.consensus.distro;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one member sends a peer: its own changed records, and sometimes a digest of everything it
 * owns.
 *
 * <p>The digest rides on a batch rather than in a message of its own because only then does it
 * describe exactly what the peer has been sent: a batch with a digest is always the one that
 * drains the sender's queue for that peer, and batches to a peer are sent one at a time. A peer
 * that applies the batch and then sees a different digest has really diverged.
 *
 * @param sender id of the sending member; every record in {@code records} is owned by it
 * @param sequence increasing per (sender, peer) within one run of the sender, for logs
 * @param records changed records, at most one per key
 * @param digest the sender's digest of its own records after these changes, when verify is due
 */
public record DistroBatch(
    String sender, long sequence, List<DistroRecord> records, Optional<OwnerDigest> digest) {
  public DistroBatch {
    Objects.requireNonNull(sender, "sender");
    records = List.copyOf(records);
    Objects.requireNonNull(digest, "digest");
  }
}
