package dev.nacre.cluster;

import dev.nacre.consensus.raft.RaftConfig;
import dev.nacre.node.NodeSeams;
import dev.nacre.node.cluster.peer.PeerAuth;
import dev.nacre.node.http.HttpGate;
import java.util.List;
import java.util.Optional;

/**
 * Puts a cluster's faults into one of its nodes through the node's {@link NodeSeams}: the link
 * filter on its peer port and on its Raft port's forwarded batches, the client gate on its HTTP and
 * client gRPC ports, the timer stall on its timers.
 */
final class FaultSeams {
  private FaultSeams() {}

  /** The seams of node {@code node} (its member address) of a cluster with these faults. */
  static NodeSeams forNode(String node, LinkFilter links, ClientGate clients, TimerStall timers) {
    return withClientGate(NodeSeams.defaults(), node, clients)
        .withTimers(name -> new StallableScheduler(NodeSeams.TIMER_THREADS, name, Optional.of(timers)))
        .withPeerInterceptors(List.of(new LinkFilterInterceptor(node, links, PeerAuth::sender)))
        // Link faults delay Raft messages by holding the handler's thread (RaftLinkHooks): on a
        // transport thread, shared by every member in the JVM, that would hold all of them.
        .withRaft(raft -> raft.handlerThreads(RaftConfig.HandlerThreads.POOL)
            .forwardInterceptor(RaftLinkHooks.FORWARDS));
  }

  /** {@code seams} with {@code gate} on the HTTP port and (outermost) on the client gRPC port. */
  static NodeSeams withClientGate(NodeSeams seams, String node, ClientGate gate) {
    return seams.withHttpGate(httpGate(node, gate))
        .withClientInterceptors(List.of(new ClientGateInterceptor(node, gate)));
  }

  /** Asks {@code gate} about {@code node} for every request and answer of the HTTP port. */
  static HttpGate httpGate(String node, ClientGate gate) {
    return (stage, client) -> gate.decide(node);
  }
}
