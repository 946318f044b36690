package dev.nacre.consensus.distro;

import java.util.Objects;

/**
 * A request for a peer's records.
 *
 * @param requester id of the member asking
 * @param scope which records to return
 */
public record SnapshotRequest(String requester, Scope scope) {

  /** Which records a snapshot holds. */
  public enum Scope {
    /** Every record the receiver owns, tombstones included: verify repair. */
    OWNED,
    /** Every record the receiver holds, of every owner: initial load of a starting member. */
    ALL
  }

  public SnapshotRequest {
    Objects.requireNonNull(requester, "requester");
    Objects.requireNonNull(scope, "scope");
  }
}
