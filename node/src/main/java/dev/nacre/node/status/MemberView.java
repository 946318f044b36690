package dev.nacre.node.status;

/**
 * One cluster member as the status APIs show it.
 *
 * @param state UP, SUSPICIOUS or DOWN
 * @param raftRole LEADER, FOLLOWER, CANDIDATE or UNKNOWN
 * @param raftLeader address of the Raft leader this member knows, empty if none
 * @param applyStalledMillis how long its state machine has applied nothing while committed entries
 *     wait, as of its last ping answer (its own status for the answering node); -1 when unknown
 *     (the member is not UP)
 * @param raftCommitIndex the highest committed Raft index the member knows (its own status for
 *     the answering node, its last ping answer for the others); -1 when unknown
 * @param raftAppliedIndex the highest Raft index the member's state machine applied, known as
 *     raftCommitIndex is; -1 when unknown
 * @param distroPendingKeys ephemeral changes the answering node still has to send the member
 *     (its Distro queue to it); -1 for the answering node itself and when unknown
 * @param distroLastAckMillis clock millis when the member last acknowledged a Distro batch of the
 *     answering node (its last sync); -1 for the answering node itself, before the first and when
 *     unknown
 */
public record MemberView(String ip, int port, String state, String raftRole, String raftLeader, long raftTerm,
    int raftPort, long applyStalledMillis, long raftCommitIndex, long raftAppliedIndex, int distroPendingKeys,
    long distroLastAckMillis) {
  public String address() {
    return ip + ":" + port;
  }
}
