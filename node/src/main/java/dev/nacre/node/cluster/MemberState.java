package dev.nacre.node.cluster;

/** How a member looks from here, as Nacos names it. */
public enum MemberState {
  /** Answered its last ping. */
  UP,
  /** Missed a ping or two: still counted for ownership, but watched. */
  SUSPICIOUS,
  /** Missed enough pings to be given up: its ownership moves to others. */
  DOWN
}
