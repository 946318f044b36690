/**
 * One Raft group's state shared by several domains: {@link dev.nacre.consensus.state.DomainStateMachine}
 * keeps the RocksDB, the applied index and the snapshots, and hands each operation to the
 * {@link dev.nacre.consensus.state.StateDomain} named by its first byte. Knows no domain.
 */
package dev.nacre.consensus.state;
