package dev.nacre.node.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * Finds a main port P on loopback whose derived ports (P-1000, P+1000, P+1001) are free too, all
 * outside Linux's default ephemeral range (32768-60999).
 */
public final class FreePorts {
  private FreePorts() {}

  public static int mainPort() {
    for (int attempt = 0; attempt < 200; attempt++) {
      // P-1000 .. P+1001 all below 32768, where Linux starts handing out ephemeral ports: an
      // outgoing connection's local port can then never take one between this check and the bind.
      int p = 11_000 + (int) (Math.random() * 20_000);
      if (free(p) && free(p - 1000) && free(p + 1000) && free(p + 1001)) {
        return p;
      }
    }
    throw new IllegalStateException("no free port range found on 127.0.0.1");
  }

  /**
   * A base port B for {@code scripts/cluster.sh --base-port B} with {@code nodes} nodes: every
   * node's main port B+10i and its derived ports are free, below the ephemeral range.
   */
  public static int basePort(int nodes) {
    for (int attempt = 0; attempt < 200; attempt++) {
      int base = 11_000 + 10 * (int) (Math.random() * 2_000);
      boolean all = true;
      for (int i = 0; i < nodes && all; i++) {
        int p = base + 10 * i;
        all = free(p) && free(p - 1000) && free(p + 1000) && free(p + 1001);
      }
      if (all) {
        return base;
      }
    }
    throw new IllegalStateException("no free port range for " + nodes + " nodes found on 127.0.0.1");
  }

  private static boolean free(int port) {
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(false);
      s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
