package dev.nacre.consensus.raft;

/**
 * One member's view of its Raft group at a moment.
 *
 * @param selfId this member's id
 * @param role LEADER, FOLLOWER, CANDIDATE, LISTENER or UNKNOWN (not running)
 * @param leaderId the leader this member knows of, empty when none
 * @param term current term
 * @param commitIndex highest committed index known here
 * @param appliedIndex highest index applied here
 * @param applyStalledMillis how long this member's state machine has applied nothing while
 *     committed entries wait (0 when it keeps up): a member whose apply died says so here
 */
public record RaftStatus(String selfId, String role, String leaderId, long term, long commitIndex,
    long appliedIndex, long applyStalledMillis) {

  /** A status whose state machine keeps up. */
  public RaftStatus(String selfId, String role, String leaderId, long term, long commitIndex, long appliedIndex) {
    this(selfId, role, leaderId, term, commitIndex, appliedIndex, 0);
  }
}
