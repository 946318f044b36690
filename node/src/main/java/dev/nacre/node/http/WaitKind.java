package dev.nacre.node.http;

/**
 * What a request's handler may wait for; each kind has workers of its own, so that requests that
 * wait for a Raft group without quorum never hold the workers of reads. Instance registrations,
 * deregistrations and beats, which wait for the member responsible for them or for a commit, take
 * no worker: their routes answer through a future ({@code Router.addAsync}).
 */
public enum WaitKind {
  /** Nothing outside this node: reads, and what this node answers by itself. */
  NOTHING,
  /** A Raft commit, up to the CP timeout when the group has no quorum. */
  COMMIT
}
