package dev.nacre.node.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free loopback ports for tests that start peer ports, which sit 1001 above a member's HTTP port. */
public final class LoopbackPorts {
  private LoopbackPorts() {}

  public static int freeAbove(int min) throws IOException {
    for (int attempt = 0; attempt < 20; attempt++) {
      try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        if (s.getLocalPort() > min) {
          return s.getLocalPort();
        }
      }
    }
    throw new IOException("no free port above " + min);
  }
}
