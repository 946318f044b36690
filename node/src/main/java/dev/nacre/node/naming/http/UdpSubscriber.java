package dev.nacre.node.naming.http;

import dev.nacre.naming.model.ServiceKey;
import java.net.InetSocketAddress;
import java.util.Set;

/**
 * Hears {@code /instance/list} calls of Nacos 1.x clients that want UDP pushes ({@code udpPort}
 * and {@code clientIP} given). Called on the HTTP worker after the parameters were validated;
 * must be quick and must not block.
 */
@FunctionalInterface
public interface UdpSubscriber {

  /**
   * @param clusters the clusters filter, parsed
   * @param clustersAsAsked the {@code clusters} parameter as the client wrote it (the client files
   *     pushed lists under it)
   * @param receiver the client's UDP receiver, an IP literal and a port in 1..65535
   */
  void listed(ServiceKey service, Set<String> clusters, String clustersAsAsked, InetSocketAddress receiver);
}
