package dev.nacre.node.cluster.peer;

/** Where the peer port's call times go (the node's metrics). */
@FunctionalInterface
public interface PeerCallObserver {
  PeerCallObserver NONE = (method, status, nanos) -> { };

  /** A call of {@code method} closed with gRPC {@code status} after {@code nanos}. */
  void record(String method, String status, long nanos);
}
