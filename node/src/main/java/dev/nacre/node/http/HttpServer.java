package dev.nacre.node.http;

import dev.nacre.node.ClientGate;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import java.net.InetSocketAddress;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Open API's HTTP/1.1 server on Netty. Bodies over the limit are answered 413 by the
 * aggregator before any handler runs; handlers run on a bounded worker pool.
 */
public final class HttpServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HttpServer.class);

  /** Long enough for any valid query string, since metadata may travel there (64 KiB). */
  static final int MAX_REQUEST_LINE = 64 * 1024;
  static final int MAX_HEADERS = 16 * 1024;
  static final int MAX_CHUNK = 64 * 1024;

  private final EventLoopGroup boss;
  private final EventLoopGroup io;
  private final ThreadPoolExecutor workers;
  private final Channel channel;

  private HttpServer(EventLoopGroup boss, EventLoopGroup io, ThreadPoolExecutor workers, Channel channel) {
    this.boss = boss;
    this.io = io;
    this.workers = workers;
    this.channel = channel;
  }

  /**
   * Binds and starts serving. Fails with an exception naming the address when the port is taken.
   *
   * @param maxBodyBytes larger request bodies get 413
   * @param workerThreads handlers that may run at once (they can wait up to the CP timeout)
   */
  public static HttpServer start(
      String name, InetSocketAddress address, Router router, int maxBodyBytes, int workerThreads)
      throws InterruptedException {
    return start(name, address, router, maxBodyBytes, workerThreads, ClientGate.OPEN);
  }

  /**
   * As above, with every request and answer passing {@code gate} first (fault injection in
   * tests; {@link ClientGate#OPEN} in production).
   *
   * @param name the node's member address: the log prefix, and what the gate is asked about
   */
  public static HttpServer start(String name, InetSocketAddress address, Router router,
      int maxBodyBytes, int workerThreads, ClientGate gate) throws InterruptedException {
    AtomicInteger seq = new AtomicInteger();
    ThreadPoolExecutor workers = new ThreadPoolExecutor(
        workerThreads, workerThreads, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(4096),
        r -> {
          Thread t = new Thread(r, name + "-http-" + seq.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
    EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    EventLoopGroup io = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    HttpDispatcher dispatcher = new HttpDispatcher(router, workers, name, gate);
    try {
      Channel channel = new ServerBootstrap()
          .group(boss, io)
          .channel(NioServerSocketChannel.class)
          .childHandler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
              ch.pipeline()
                  .addLast(new HttpServerCodec(MAX_REQUEST_LINE, MAX_HEADERS, MAX_CHUNK))
                  .addLast(new HttpServerKeepAliveHandler())
                  .addLast(new HttpObjectAggregator(maxBodyBytes))
                  .addLast(dispatcher);
            }
          })
          .bind(address)
          .sync()
          .channel();
      log.info("[{}] HTTP Open API listening on {}", name, channel.localAddress());
      return new HttpServer(boss, io, workers, channel);
    } catch (Exception e) {
      boss.shutdownGracefully(0, 0, TimeUnit.SECONDS);
      io.shutdownGracefully(0, 0, TimeUnit.SECONDS);
      workers.shutdownNow();
      if (e instanceof InterruptedException ie) {
        throw ie;
      }
      throw new IllegalStateException("cannot serve HTTP on " + address + " (" + e.getMessage()
          + "): is another process using the port? Choose another with --port", e);
    }
  }

  public InetSocketAddress address() {
    return (InetSocketAddress) channel.localAddress();
  }

  @Override
  public void close() {
    channel.close().syncUninterruptibly();
    boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    io.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    workers.shutdownNow();
  }
}
