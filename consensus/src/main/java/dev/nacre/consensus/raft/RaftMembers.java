package dev.nacre.consensus.raft;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The voting members of a Raft group as one member knows them.
 *
 * @param logIndex index of the log entry that holds this configuration; negative for the one a
 *     member starts with before its log has any (its configured peers)
 * @param peers peer id to {@code host:raftPort}
 */
public record RaftMembers(long logIndex, Map<String, String> peers) {
  public RaftMembers {
    peers = Collections.unmodifiableMap(new LinkedHashMap<>(peers)); // the group's order
  }
}
