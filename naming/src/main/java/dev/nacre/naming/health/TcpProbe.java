package dev.nacre.naming.health;

import dev.nacre.naming.model.ClusterInfo;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;

/** Healthy when a TCP connection opens within the timeout (Nacos' default checker). */
public final class TcpProbe implements HealthProbe {
  private final int timeoutMillis;

  public TcpProbe(Duration timeout) {
    this.timeoutMillis = Math.toIntExact(timeout.toMillis());
  }

  @Override
  public boolean isHealthy(String host, int port, ClusterInfo cluster) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), timeoutMillis);
      return true;
    } catch (IOException | IllegalArgumentException e) {
      return false;
    }
  }
}
