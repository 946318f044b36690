package dev.nacre.node.cluster;

import io.grpc.BindableService;
import io.grpc.Server;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The gRPC server on the peer port (P+1001); every call must pass {@link PeerAuth}. */
public final class PeerServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PeerServer.class);
  private final Server server;

  private PeerServer(Server server) {
    this.server = server;
  }

  static PeerServer start(String name, InetSocketAddress address, BindableService service, PeerAuth auth,
      Optional<ServerInterceptor> linkFilter) {
    // The last interceptor listed runs first: authentication, then the (test-only) link filter.
    ServerServiceDefinition intercepted = linkFilter
        .map(f -> ServerInterceptors.intercept(service, f, auth.server()))
        .orElseGet(() -> ServerInterceptors.intercept(service, auth.server()));
    Server server = NettyServerBuilder.forAddress(address)
        .addService(intercepted)
        .maxInboundMessageSize(64 * 1024 * 1024)
        .build();
    try {
      server.start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen for peers on " + address + ": is the port free?", e);
    }
    log.info("[{}] peer gRPC listening on {}", name, address);
    return new PeerServer(server);
  }

  @Override
  public void close() {
    server.shutdownNow();
    try {
      server.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
