package dev.nacre.node.http;

/**
 * What a request's handler may wait for; each kind has workers of its own, so that requests that
 * wait on one thing (a Raft group without quorum, a member that does not answer) never hold the
 * workers of the others.
 */
public enum WaitKind {
  /** Nothing outside this node: reads, and what this node answers by itself. */
  NOTHING,
  /** Another member's answer: an ephemeral write or beat applied by the member responsible for it. */
  PEER,
  /** A Raft commit, up to the CP timeout when the group has no quorum. */
  COMMIT
}
