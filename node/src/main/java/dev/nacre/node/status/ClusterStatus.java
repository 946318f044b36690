package dev.nacre.node.status;

import java.util.List;

/** What the node knows of its cluster right now, for the status APIs. Thread-safe. */
public interface ClusterStatus {
  List<MemberView> members();

  /** This node's own entry among {@link #members()}. */
  default MemberView self(String selfAddress) {
    return members().stream().filter(m -> m.address().equals(selfAddress)).findFirst()
        .orElseThrow(() -> new IllegalStateException("this node " + selfAddress + " is not among its members"));
  }
}
