package dev.nacre.node.cluster.peer;

import dev.nacre.proto.peer.PeerGrpc;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.ratis.thirdparty.io.grpc.BindableService;
import org.apache.ratis.thirdparty.io.grpc.Metadata;
import org.apache.ratis.thirdparty.io.grpc.Server;
import org.apache.ratis.thirdparty.io.grpc.ServerCall;
import org.apache.ratis.thirdparty.io.grpc.ServerCallExecutorSupplier;
import org.apache.ratis.thirdparty.io.grpc.ServerInterceptor;
import org.apache.ratis.thirdparty.io.grpc.ServerInterceptors;
import org.apache.ratis.thirdparty.io.grpc.ServerServiceDefinition;
import org.apache.ratis.thirdparty.io.grpc.netty.NettyServerBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gRPC server on the peer port (P+1001): mutual TLS, and every call must pass {@link PeerAuth}. At most
 * {@code maxCalls} calls run at once ({@link CallLimit}), on a pool of at most that many threads,
 * except owner writes, which start on the transport thread that read them ({@link PeerService#write})
 * unless interceptors were given (see {@link #start}).
 */
public final class PeerServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PeerServer.class);
  private final Server server;
  private final ExecutorService handlers;
  private final CallLimit limit;

  private PeerServer(Server server, ExecutorService handlers, CallLimit limit) {
    this.server = server;
    this.handlers = handlers;
    this.limit = limit;
  }

  /**
   * @param service the peer port's calls, given the pool that runs their handlers (for the work
   *     that a handler started on a transport thread must not do there)
   * @param interceptors run, in this order, on every call that passed authentication (so
   *     {@link PeerAuth#sender} names its verified sender), before the service sees it. They may
   *     block: with any, every call runs on the handler pool, none on a transport thread, which
   *     serves many calls and members at once
   */
  public static PeerServer start(String name, InetSocketAddress address, Function<Executor, BindableService> service,
      PeerAuth auth, List<ServerInterceptor> interceptors, int maxCalls, PeerCallObserver calls) {
    CallLimit limit = new CallLimit(maxCalls, "peer port " + address.getPort() + " of " + name,
        Set.of(PeerGrpc.getPingMethod().getFullMethodName()));
    PeerCallTimer timer = new PeerCallTimer(calls);
    // No counted call waits for a thread: the limit admits no more calls than there are threads,
    // and a few more threads keep pings (exempt) answered while the counted calls hold the rest.
    int threads = maxCalls + 4;
    ThreadPoolExecutor handlers = IdleFirstPool.create(name + "-peer-", threads, 30);
    BindableService peerCalls = service.apply(handlers);
    // The last interceptor listed runs first: the timer, the call limit, authentication, then the
    // given ones in their order.
    List<ServerInterceptor> chain = new ArrayList<>(interceptors);
    Collections.reverse(chain);
    chain.addAll(List.of(auth.server(), limit, timer));
    ServerServiceDefinition intercepted = ServerInterceptors.intercept(peerCalls, chain);
    NettyServerBuilder builder = NettyServerBuilder.forAddress(address)
        .sslContext(auth.serverTls())
        .addService(intercepted)
        .maxInboundMessageSize(64 * 1024 * 1024);
    if (interceptors.isEmpty()) {
      builder.directExecutor().callExecutor(new WritesOnTransport(handlers));
    } else {
      builder.executor(handlers);
    }
    Server server = builder.build();
    try {
      server.start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen for peers on " + address + ": is the port free?", e);
    }
    log.info("[{}] peer gRPC listening on {} (mutual TLS, at most {} calls at once)", name, address, maxCalls);
    return new PeerServer(server, handlers, limit);
  }

  /**
   * Owner writes run where they arrive. An ephemeral write or beat forwarded by the member a client
   * called is applied in memory in microseconds, and a pooled handler cost the call two thread
   * hand-offs on each of two members (about a quarter of the thread switches of an HTTP ephemeral
   * registration). The rare write that waits for a commit leaves for the pool itself.
   */
  private static final class WritesOnTransport implements ServerCallExecutorSupplier {
    private static final String WRITE = PeerGrpc.getWriteMethod().getFullMethodName();
    private final Executor pool;

    WritesOnTransport(Executor pool) {
      this.pool = pool;
    }

    /**
     * Asked on the transport thread as a call starts. The server's own executor must be the direct
     * one: gRPC runs this choice, and the call's start, on that executor, so a pooled default would
     * hand every write to the pool anyway.
     */
    @Override
    public <Q, R> Executor getExecutor(ServerCall<Q, R> call, Metadata headers) {
      return WRITE.equals(call.getMethodDescriptor().getFullMethodName()) ? null : pool; // null: right here
    }
  }

  /** Calls refused so far because {@code maxCalls} were in flight. */
  public long refusedCalls() {
    return limit.refused();
  }

  @Override
  public void close() {
    server.shutdownNow();
    try {
      server.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      handlers.shutdownNow();
    }
  }
}
