package dev.nacre.node.http;

import java.net.InetSocketAddress;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.ratis.thirdparty.io.netty.bootstrap.ServerBootstrap;
import org.apache.ratis.thirdparty.io.netty.channel.Channel;
import org.apache.ratis.thirdparty.io.netty.channel.ChannelInitializer;
import org.apache.ratis.thirdparty.io.netty.channel.EventLoopGroup;
import org.apache.ratis.thirdparty.io.netty.channel.nio.NioEventLoopGroup;
import org.apache.ratis.thirdparty.io.netty.channel.socket.SocketChannel;
import org.apache.ratis.thirdparty.io.netty.channel.socket.nio.NioServerSocketChannel;
import org.apache.ratis.thirdparty.io.netty.handler.codec.http.HttpServerCodec;
import org.apache.ratis.thirdparty.io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import org.apache.ratis.thirdparty.io.netty.handler.timeout.IdleStateHandler;
import org.apache.ratis.thirdparty.io.netty.util.concurrent.DefaultThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Open API's HTTP/1.1 server on Netty, within {@link HttpLimits}. Bodies over the limit are
 * answered 413 by the aggregator before any handler runs; handlers run on a bounded worker pool,
 * except those that only start their work and answer through a future ({@link Router#addAsync});
 * a connection carries one request at a time, so answers keep the order of pipelined requests.
 */
public final class HttpServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HttpServer.class);

  /** Long enough for any valid query string, since metadata may travel there (64 KiB). */
  static final int MAX_REQUEST_LINE = 64 * 1024;
  static final int MAX_HEADERS = 16 * 1024;
  static final int MAX_CHUNK = 64 * 1024;

  private final EventLoopGroup boss;
  private final EventLoopGroup io;
  /** The workers of each {@link WaitKind}. */
  private final Map<WaitKind, ThreadPoolExecutor> workers;
  private final Channel channel;

  private HttpServer(EventLoopGroup boss, EventLoopGroup io, Map<WaitKind, ThreadPoolExecutor> workers,
      Channel channel) {
    this.boss = boss;
    this.io = io;
    this.workers = workers;
    this.channel = channel;
  }

  /**
   * Binds and starts serving, with every request and answer passing {@code gate} first
   * ({@link HttpGate#OPEN} to pass all). Fails with an exception naming the address when the port
   * is taken.
   *
   * @param name the node's member address: the log prefix
   * @param waits what a request may wait for: each kind gets {@link HttpLimits#workerThreads()}
   *     workers of its own, so that the others go on while those wait
   */
  public static HttpServer start(String name, InetSocketAddress address, Router router, HttpLimits limits,
      Function<ApiRequest, WaitKind> waits, HttpGate gate) throws InterruptedException {
    Map<WaitKind, ThreadPoolExecutor> workers = new EnumMap<>(WaitKind.class);
    workers.put(WaitKind.NOTHING, workers(name + "-http-", limits.workerThreads()));
    workers.put(WaitKind.COMMIT, workers(name + "-http-cp-", limits.workerThreads()));
    EventLoopGroup boss = new NioEventLoopGroup(1, new DefaultThreadFactory(name + "-http-accept"));
    EventLoopGroup io = new NioEventLoopGroup(2, new DefaultThreadFactory(name + "-http-io"));
    HttpDispatcher dispatcher = new HttpDispatcher(router,
        request -> workers.get(waits.apply(request)), name, gate, limits);
    long idleNanos = limits.idleTimeout().toNanos();
    try {
      Channel channel = new ServerBootstrap()
          .group(boss, io)
          .channel(NioServerSocketChannel.class)
          .childHandler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
              ch.pipeline()
                  .addLast(new IdleStateHandler(0, 0, idleNanos, TimeUnit.NANOSECONDS))
                  .addLast(new HttpServerCodec(MAX_REQUEST_LINE, MAX_HEADERS, MAX_CHUNK))
                  .addLast(new HttpServerKeepAliveHandler())
                  .addLast(new BoundedBodyAggregator(limits.maxBodyBytes()))
                  .addLast(dispatcher);
            }
          })
          .bind(address)
          .sync()
          .channel();
      log.info("[{}] HTTP Open API listening on {} ({})", name, channel.localAddress(), limits);
      return new HttpServer(boss, io, workers, channel);
    } catch (Exception e) {
      boss.shutdownGracefully(0, 0, TimeUnit.SECONDS);
      io.shutdownGracefully(0, 0, TimeUnit.SECONDS);
      workers.values().forEach(ThreadPoolExecutor::shutdownNow);
      if (e instanceof InterruptedException ie) {
        throw ie;
      }
      throw new IllegalStateException("cannot serve HTTP on " + address + " (" + e.getMessage()
          + "): is another process using the port? Choose another with --port", e);
    }
  }

  private static ThreadPoolExecutor workers(String prefix, int threads) {
    AtomicInteger seq = new AtomicInteger();
    return new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(4096), r -> {
      Thread t = new Thread(r, prefix + seq.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }

  public InetSocketAddress address() {
    return (InetSocketAddress) channel.localAddress();
  }

  @Override
  public void close() {
    channel.close().syncUninterruptibly();
    boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    io.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    workers.values().forEach(ThreadPoolExecutor::shutdownNow);
  }
}
