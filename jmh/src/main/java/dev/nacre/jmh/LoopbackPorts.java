package dev.nacre.jmh;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Ports for the benchmarks' Raft members, on loopback only. */
final class LoopbackPorts {
  private LoopbackPorts() {}

  /** A port free on the loopback address right now. */
  static int free() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
