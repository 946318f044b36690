package dev.nacre.naming.api;

import dev.nacre.naming.model.ServiceView;
import java.util.concurrent.CompletableFuture;

/**
 * Where the pushes of one subscribed client go: a Nacos 2.x client's gRPC stream, or the UDP
 * address of a 1.x client. Implemented by the node's transports; the push core never sees them.
 */
public interface PushTarget {

  /**
   * Identifies the client on this node: the gRPC connection id, or {@code udp:ip:port} (with
   * {@code ?clusters=...} appended for a 1.x client's filtered polls). Two targets with the same
   * id are the same client; subscribing again with a new target object replaces the old one.
   */
  String clientId();

  /**
   * Sends the full current list of one service, as filtered for this subscription. Completes
   * when the client acknowledged it; completes exceptionally when sending failed or no
   * acknowledgement came in time. Must not block the caller (the push thread); may throw, which
   * counts as a failed push.
   *
   * <p>The push core calls it with at most one push in flight per (client, service), and stops
   * waiting after {@code PushConfig.ackTimeout} on its own (completing the future exceptionally),
   * so a target need not time out itself.
   */
  CompletableFuture<Void> push(ServiceView view);
}
