package dev.nacre.node.api;

import java.util.List;

/** What the node knows of its cluster right now, for the status APIs. Thread-safe. */
public interface ClusterStatus {
  List<MemberView> members();
}
