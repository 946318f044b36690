package dev.nacre.node.client;

import dev.nacre.consensus.async.PeriodicTask;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Spreads Nacos 2.x clients over the members: each round, a member holding far more than its
 * share asks some of its clients to move to the members holding the fewest ({@link RebalancePlan}).
 * The other members' counts come from their ping answers.
 */
public final class ClientRebalancer {
  private static final Logger log = LoggerFactory.getLogger(ClientRebalancer.class);

  private final String self;
  private final ClientConnections connections;
  private final Supplier<Map<String, Integer>> peerClients;

  /** @param peerClients client counts of the other members that are up and ready, by address */
  public ClientRebalancer(String self, ClientConnections connections, Supplier<Map<String, Integer>> peerClients) {
    this.self = self;
    this.connections = connections;
    this.peerClients = peerClients;
  }

  /** One round: moves the clients the plan says to move; returns how many were asked. */
  public int round() {
    List<String> ids = connections.settledIds();
    Map<String, Integer> others = peerClients.get();
    List<String> targets = RebalancePlan.targets(ids.size(), others);
    if (!targets.isEmpty()) {
      log.info("[{}] holding {} of the clients (others: {}): moving {} of them", self, ids.size(), others,
          targets.size());
    }
    // Which ones does not matter much; the oldest ids first, so a client that just arrived
    // (a new id sorts last) is not sent on again at once.
    for (int i = 0; i < targets.size(); i++) {
      connections.move(ids.get(i), targets.get(i));
    }
    return targets.size();
  }

  /** Runs a round every {@code period} until the returned handle is closed. */
  public AutoCloseable start(ScheduledExecutorService scheduler, Duration period) {
    return PeriodicTask.start(scheduler, period, "client rebalancing of " + self, this::round);
  }
}
