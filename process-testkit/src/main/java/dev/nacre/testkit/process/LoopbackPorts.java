package dev.nacre.testkit.process;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Main ports P for Nacre nodes on 127.0.0.1: a node also listens on P-1000 (Raft), P+1000 (Nacos
 * 2.x clients) and P+1001 (peers), so all four must be free and no two nodes may share any of them.
 */
public final class LoopbackPorts {
  private static final int[] OFFSETS = {-1000, 0, 1000, 1001};

  private LoopbackPorts() {}

  /** {@code count} main ports whose derived ports are free now and pairwise distinct. */
  public static List<Integer> forNodes(int count) {
    List<Integer> chosen = new ArrayList<>();
    for (int attempt = 0; attempt < 500 && chosen.size() < count; attempt++) {
      // Below 32768, where Linux starts handing out ephemeral ports, so that no outgoing
      // connection takes one of them between this check and the node's bind.
      int p = 11_000 + ThreadLocalRandom.current().nextInt(20_000);
      if (!overlaps(p, chosen) && allFree(p)) {
        chosen.add(p);
      }
    }
    if (chosen.size() < count) {
      throw new IllegalStateException("found only " + chosen.size() + " of " + count
          + " free port ranges on 127.0.0.1 (each needs P-1000, P, P+1000 and P+1001)");
    }
    return chosen;
  }

  private static boolean overlaps(int p, List<Integer> chosen) {
    for (int q : chosen) {
      for (int a : OFFSETS) {
        for (int b : OFFSETS) {
          if (p + a == q + b) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static boolean allFree(int p) {
    for (int offset : OFFSETS) {
      if (!free(p + offset)) {
        return false;
      }
    }
    return true;
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
