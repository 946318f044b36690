/**
 * The CP replicated log: one Raft group (Apache Ratis over gRPC) whose committed entries a
 * {@link dev.nacre.consensus.raft.ReplicatedStateMachine} applies, in order, on every member.
 *
 * <p>Start a member with {@link dev.nacre.consensus.raft.RatisReplicatedLog#start} and a
 * {@link dev.nacre.consensus.raft.RaftConfig}. Snapshots are folders written by the state machine
 * (a RocksDB checkpoint); Ratis streams the leader's latest one to a member that lags behind its
 * purged log, and the state machine installs it. Everything Ratis-specific is in {@code internal}.
 *
 * <p>With {@link dev.nacre.consensus.raft.RaftConfig#clusterSecret()} set, the Raft port speaks only
 * mutual TLS whose certificates derive from that secret: a member or client without it cannot
 * join, vote, append or submit ({@code dev.nacre.consensus.tls.SecretDerivedTls} explains the scheme and limits).
 */
package dev.nacre.consensus.raft;
