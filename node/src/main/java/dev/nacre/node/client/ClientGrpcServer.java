package dev.nacre.node.client;

import dev.nacre.node.config.ClientSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.thirdparty.io.grpc.Server;
import org.apache.ratis.thirdparty.io.grpc.ServerInterceptor;
import org.apache.ratis.thirdparty.io.grpc.ServerInterceptors;
import org.apache.ratis.thirdparty.io.grpc.netty.NettyServerBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Nacos 2.x client port (P+1000): the {@code Request} and {@code BiRequestStream} services
 * over plaintext HTTP/2, one {@link ClientConnections connection} per TCP transport. Closing asks
 * every client to move to another server first, so that they fail over at once instead of after
 * their keep-alive timeout.
 */
public final class ClientGrpcServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ClientGrpcServer.class);
  /** Nacos' own bound on one client message. */
  private static final int MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
  private static final Duration RESET_BOUND = Duration.ofSeconds(1);

  private final String nodeName;
  private final Server server;
  private final ClientConnections connections;
  private final AutoCloseable detection;
  private final ClientPortLoops loops;

  private ClientGrpcServer(String nodeName, Server server, ClientConnections connections,
      AutoCloseable detection, ClientPortLoops loops) {
    this.nodeName = nodeName;
    this.loops = loops;
    this.server = server;
    this.connections = connections;
    this.detection = detection;
  }

  /**
   * Listens on {@code address} and answers the requests of the domain that {@code domain} builds
   * on the port's codec and connections.
   *
   * @param interceptors see every call first, in this order, before the port's own connection
   *     bookkeeping, as a network would; they run on the transport threads, so one that blocks
   *     holds the other calls of that thread meanwhile. None by default
   */
  public static ClientGrpcServer start(String nodeName, InetSocketAddress address, ClientSettings settings,
      ClientRequestHandlers.Factory domain, Clock clock, ScheduledExecutorService timer,
      List<ServerInterceptor> interceptors, ClientRequestObserver observer, RequestAccess access) {
    PayloadCodec codec = new PayloadCodec();
    ClientConnections connections = new ClientConnections(nodeName, clock, settings, timer, codec);
    ClientRequestHandlers handlers = domain.create(codec, connections);
    ConnectionTransportFilter filter = new ConnectionTransportFilter(connections);
    // The last interceptor listed runs first: the given ones in their order, then the filter.
    List<ServerInterceptor> chain = new ArrayList<>(interceptors);
    chain.add(filter);
    Collections.reverse(chain);
    ClientPortLoops loops = new ClientPortLoops(nodeName, settings.ioThreads());
    Server server = loops.applyTo(NettyServerBuilder.forAddress(address))
        // Handlers do not block (a CP write answers when it completes): running them on the
        // transport threads saves two thread hand-offs per request.
        .directExecutor()
        .addTransportFilter(filter)
        .addService(ServerInterceptors.intercept(
            new UnaryRequestService(nodeName, connections, codec, handlers, observer, access), chain))
        .addService(ServerInterceptors.intercept(new StreamService(nodeName, connections, codec), chain))
        .maxInboundMessageSize(MAX_MESSAGE_BYTES)
        // HTTP/2 pings free the transports of frozen or vanished clients (their connections are
        // already closed by the idle check; this releases the socket too).
        .keepAliveTime(60, TimeUnit.SECONDS)
        .keepAliveTimeout(20, TimeUnit.SECONDS)
        .build();
    try {
      server.start();
    } catch (IOException e) {
      loops.close();
      throw new UncheckedIOException("cannot listen for Nacos clients on " + address
          + ": is the port (main port + 1000) free?", e);
    }
    log.info("[{}] Nacos client gRPC listening on {}", nodeName, address);
    return new ClientGrpcServer(nodeName, server, connections, connections.startDetection(), loops);
  }

  public ClientConnections connections() {
    return connections;
  }

  public int port() {
    return server.getPort();
  }

  @Override
  public void close() {
    try {
      detection.close();
    } catch (Exception e) {
      log.debug("[{}] stopping the idle check: {}", nodeName, e.toString());
    }
    connections.shutdown(RESET_BOUND);
    server.shutdownNow();
    try {
      server.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      loops.close();
    }
  }
}
