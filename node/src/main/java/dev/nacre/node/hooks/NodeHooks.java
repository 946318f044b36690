package dev.nacre.node.hooks;

import dev.nacre.node.hooks.LinkFilter;
import java.util.Objects;
import java.util.Optional;

/**
 * Extension points for test harnesses; production starts nodes with {@link #none()}, which
 * changes nothing.
 *
 * @param linkFilter consulted for every call arriving on the peer port (Distro, pings,
 *     forwarding); absent in production
 * @param clientGate consulted for every client request and answer (HTTP Open API; the client
 *     gRPC port through a server interceptor); absent in production, which passes everything
 * @param timerStall consulted by the node's timer threads before each periodic task; absent in
 *     production
 */
public record NodeHooks(Optional<LinkFilter> linkFilter, Optional<ClientGate> clientGate,
    Optional<TimerStall> timerStall) {
  public NodeHooks {
    Objects.requireNonNull(linkFilter, "linkFilter");
    Objects.requireNonNull(clientGate, "clientGate");
    Objects.requireNonNull(timerStall, "timerStall");
  }

  public static NodeHooks none() {
    return new NodeHooks(Optional.empty(), Optional.empty(), Optional.empty());
  }

  public static NodeHooks withLinkFilter(LinkFilter filter) {
    return none().andLinkFilter(filter);
  }

  public NodeHooks andLinkFilter(LinkFilter filter) {
    return new NodeHooks(Optional.of(filter), clientGate, timerStall);
  }

  public NodeHooks andClientGate(ClientGate gate) {
    return new NodeHooks(linkFilter, Optional.of(gate), timerStall);
  }

  public NodeHooks andTimerStall(TimerStall stall) {
    return new NodeHooks(linkFilter, clientGate, Optional.of(stall));
  }

  /** The gate to apply to client traffic: the hook, or {@link ClientGate#OPEN}. */
  public ClientGate clientGateOrOpen() {
    return clientGate.orElse(ClientGate.OPEN);
  }
}
