package dev.nacre.naming.push;

import dev.nacre.naming.model.ServiceView;
import java.util.concurrent.CompletableFuture;

/**
 * Where the pushes of one subscribed client go: a Nacos 2.x client's gRPC stream, or the UDP
 * address of a 1.x client. Implemented by the node's transports; the push core never sees them.
 */
public interface PushTarget {

  /**
   * Identifies the client on this node: the gRPC connection id, or {@code udp:ip:port}. Two
   * targets with the same id are the same client.
   */
  String clientId();

  /**
   * Sends the full current list of one service, as filtered for this subscription. Completes
   * when the client acknowledged it; completes exceptionally when sending failed or no
   * acknowledgement came in time. Must not block the caller.
   */
  CompletableFuture<Void> push(ServiceView view);
}
