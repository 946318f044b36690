package dev.nacre.cluster;

import dev.nacre.node.http.HttpGate;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fault on client traffic (HTTP Open API, client gRPC) into each member of one cluster; one
 * instance per {@link LocalCluster}, nothing static. A member cut off from clients drops every
 * request and answer (HTTP: TCP reset, no answer; see {@link ClientGate}); a paused member holds
 * them until it wakes. Thread-safe.
 */
final class ClientFaults implements ClientGate {
  private final Set<String> cutOff = ConcurrentHashMap.newKeySet();
  private final Pauses pauses;

  ClientFaults(Pauses pauses) {
    this.pauses = pauses;
  }

  /** Clients can no longer reach {@code member}; requests in flight lose their answers. */
  void isolate(String member) {
    cutOff.add(member);
  }

  void heal(String member) {
    cutOff.remove(member);
  }

  void heal() {
    cutOff.clear();
  }

  boolean isIsolated(String member) {
    return cutOff.contains(member);
  }

  @Override
  public HttpGate.Decision decide(String node) {
    if (cutOff.contains(node)) {
      return HttpGate.Decision.RESET;
    }
    return HttpGate.Decision.hold(pauses.remaining(node));
  }

  @Override
  public String toString() {
    return "cut off from clients " + cutOff;
  }
}
