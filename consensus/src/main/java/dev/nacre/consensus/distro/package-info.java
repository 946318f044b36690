/**
 * Distro: asynchronous peer-to-peer replication of keyed records (the AP half of Nacre), generic
 * over what the records mean.
 *
 * <p>Each record has one owner, the member that wrote it. A member sends its own changes to every
 * peer through one pipeline per peer (merged by key, batched at 1000 keys or 200 ms, one batch in
 * flight, retried with backoff); every 5 s the batch that drains a pipeline carries a digest of
 * the sender's records, and a peer whose view differs pulls the owner's full set and replaces its
 * view with it. A starting member loads a full snapshot from one peer before it is ready; the
 * records of a member that went DOWN are removed after a grace period.
 *
 * <p>Entry points: {@link dev.nacre.consensus.distro.DistroReplicator} (the threaded shell the
 * application talks to), {@link dev.nacre.consensus.distro.DistroHandler} (implemented by the
 * application), {@link dev.nacre.consensus.distro.DistroTransport} (implemented over gRPC),
 * {@link dev.nacre.consensus.distro.OwnershipMapper} (which member is responsible for a key).
 * The protocol itself is the pure, single-threaded {@code DistroCore}, tested by a deterministic
 * simulation.
 */
package dev.nacre.consensus.distro;
