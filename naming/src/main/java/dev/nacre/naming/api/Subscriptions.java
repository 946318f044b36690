package dev.nacre.naming.api;

import dev.nacre.naming.model.ServiceKey;
import java.util.List;
import java.util.Set;

/**
 * The subscriptions of the clients connected to this node, and the promise that each of them
 * gets the current instance list of its services soon after it changes (bursts merged). The
 * transports (client gRPC, UDP) call this; the push core implements it ({@code PushService}).
 *
 * <p>What a subscriber gets: {@code listInstances(service, clusters, false, false)}, i.e. every
 * enabled instance, healthy or not, with the protection threshold applied; always the full list.
 * A lone change is pushed at once, a burst at most once per {@code PushConfig.mergeDelay}; a list
 * equal to the one the client last acknowledged is not pushed again. A failed or unacknowledged
 * push is retried with backoff; a client that acknowledges nothing for {@code
 * PushConfig.dropAfter} is removed as by {@link #removeClient}. Thread-safe; no method blocks on
 * the network.
 */
public interface Subscriptions {

  /**
   * Subscribes (or re-subscribes, replacing the clusters) a client to a service. The client gets
   * one push of the current list shortly after, even if nothing changes.
   *
   * @param clusters cluster names to keep; empty for all
   */
  void subscribe(ServiceKey service, Set<String> clusters, PushTarget target);

  /** Ends one subscription; unknown ones are ignored. */
  void unsubscribe(ServiceKey service, String clientId);

  /** Ends every subscription of a client (its connection closed or it stopped acknowledging). */
  void removeClient(String clientId);

  /** The services a client is subscribed to, sorted. */
  List<ServiceKey> servicesOf(String clientId);

  /** The clients subscribed to a service, by client id, sorted. */
  List<String> subscribersOf(ServiceKey service);
}
