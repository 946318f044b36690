package dev.nacre.node;

import org.apache.ratis.thirdparty.io.netty.channel.nio.NioEventLoopGroup;
import org.apache.ratis.thirdparty.io.netty.util.internal.PlatformDependent;

/**
 * Run in a JVM of its own by {@link MainTest}: prints whether Netty takes its direct memory
 * without the JDK zeroing it, and how many threads a transport thread group of the default size
 * (gRPC's shared one) gets, after {@link Main}'s settings when the argument is {@code main}.
 */
final class NettySettingsProbe {
  private NettySettingsProbe() {}

  @SuppressWarnings("deprecation") // Netty 4.1's event loop groups, as shaded by gRPC
  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("main")) {
      Main.allowNettyUnzeroedDirectMemory();
      Main.shareFewerTransportThreads();
    }
    System.out.println("unzeroed=" + PlatformDependent.useDirectBufferNoCleaner());
    NioEventLoopGroup group = new NioEventLoopGroup();
    System.out.println("threads=" + group.executorCount());
    group.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.SECONDS);
  }
}
