package dev.nacre.node.client;

import java.util.concurrent.TimeUnit;
import org.apache.ratis.thirdparty.io.grpc.netty.NettyServerBuilder;
import org.apache.ratis.thirdparty.io.netty.channel.EventLoopGroup;
import org.apache.ratis.thirdparty.io.netty.channel.ServerChannel;
import org.apache.ratis.thirdparty.io.netty.channel.epoll.Epoll;
import org.apache.ratis.thirdparty.io.netty.channel.epoll.EpollEventLoopGroup;
import org.apache.ratis.thirdparty.io.netty.channel.epoll.EpollServerSocketChannel;
import org.apache.ratis.thirdparty.io.netty.channel.nio.NioEventLoopGroup;
import org.apache.ratis.thirdparty.io.netty.channel.socket.nio.NioServerSocketChannel;
import org.apache.ratis.thirdparty.io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The client port's own I/O threads. Its handlers run on them (see {@link CpWritesInFlight}), so
 * they must not be gRPC's JVM-wide default threads, which the peer port and the peer channels
 * share: a flood of client requests, or a call held by a client interceptor that blocks, would
 * stall replication and pings too. How many: {@code ClientSettings.ioThreads}.
 */
final class ClientPortLoops implements AutoCloseable {
  private final EventLoopGroup boss;
  private final EventLoopGroup io;
  private final Class<? extends ServerChannel> channelType;

  @SuppressWarnings("deprecation") // Netty 4.1's event loop groups, as shaded by gRPC
  ClientPortLoops(String nodeName, int ioThreads) {
    boolean epoll = Epoll.isAvailable();
    boss = epoll ? new EpollEventLoopGroup(1, threads("client-grpc-accept-" + nodeName))
        : new NioEventLoopGroup(1, threads("client-grpc-accept-" + nodeName));
    io = epoll ? new EpollEventLoopGroup(ioThreads, threads("client-grpc-io-" + nodeName))
        : new NioEventLoopGroup(ioThreads, threads("client-grpc-io-" + nodeName));
    channelType = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
  }

  NettyServerBuilder applyTo(NettyServerBuilder builder) {
    return builder.bossEventLoopGroup(boss).workerEventLoopGroup(io).channelType(channelType);
  }

  private static DefaultThreadFactory threads(String prefix) {
    return new DefaultThreadFactory(prefix, true);
  }

  /** After the server has stopped. */
  @Override
  public void close() {
    boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    io.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }
}
