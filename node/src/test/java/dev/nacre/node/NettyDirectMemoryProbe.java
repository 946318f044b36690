package dev.nacre.node;

import org.apache.ratis.thirdparty.io.netty.util.internal.PlatformDependent;

/**
 * Run in a JVM of its own by {@link MainTest}: prints whether Netty takes its direct memory
 * without the JDK zeroing it, after {@link Main}'s setting when the argument is {@code main}.
 */
final class NettyDirectMemoryProbe {
  private NettyDirectMemoryProbe() {}

  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("main")) {
      Main.allowNettyUnzeroedDirectMemory();
    }
    System.out.println("unzeroed=" + PlatformDependent.useDirectBufferNoCleaner());
  }
}
