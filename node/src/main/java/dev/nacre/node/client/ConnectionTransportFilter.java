package dev.nacre.node.client;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import org.apache.ratis.thirdparty.io.grpc.Attributes;
import org.apache.ratis.thirdparty.io.grpc.Context;
import org.apache.ratis.thirdparty.io.grpc.Contexts;
import org.apache.ratis.thirdparty.io.grpc.Grpc;
import org.apache.ratis.thirdparty.io.grpc.Metadata;
import org.apache.ratis.thirdparty.io.grpc.ServerCall;
import org.apache.ratis.thirdparty.io.grpc.ServerCallHandler;
import org.apache.ratis.thirdparty.io.grpc.ServerInterceptor;
import org.apache.ratis.thirdparty.io.grpc.ServerTransportFilter;

/**
 * Identifies a Nacos client connection by its TCP transport, as Nacos does: the id is assigned
 * when the transport becomes ready, and every unary call and stream on that transport belongs to
 * it (the client never sends the id back). The interceptor puts the id into the gRPC
 * {@link Context} of each call, where {@link #connectionId()} reads it.
 */
final class ConnectionTransportFilter extends ServerTransportFilter implements ServerInterceptor {
  private static final Attributes.Key<String> TRANSPORT_ID = Attributes.Key.create("nacre.client.connection");
  private static final Context.Key<String> CALL_ID = Context.key("nacre.client.connection");

  private final ClientConnections connections;

  ConnectionTransportFilter(ClientConnections connections) {
    this.connections = connections;
  }

  /** The connection of the current call; null outside a call of the client port. */
  static String connectionId() {
    return CALL_ID.get();
  }

  @Override
  public Attributes transportReady(Attributes attrs) {
    SocketAddress remote = attrs.get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
    String ip = "unknown";
    int port = 0;
    if (remote instanceof InetSocketAddress inet) {
      ip = inet.getAddress() == null ? inet.getHostString() : inet.getAddress().getHostAddress();
      port = inet.getPort();
    }
    String id = connections.opened(ip, port);
    return attrs.toBuilder().set(TRANSPORT_ID, id).build();
  }

  @Override
  public void transportTerminated(Attributes attrs) {
    String id = attrs == null ? null : attrs.get(TRANSPORT_ID);
    if (id != null) {
      connections.transportClosed(id);
    }
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    String id = call.getAttributes().get(TRANSPORT_ID);
    return Contexts.interceptCall(Context.current().withValue(CALL_ID, id), call, headers, next);
  }
}
