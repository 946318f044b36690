package dev.nacre.node.naming.http;

import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.HttpError;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads a 1.x client's UDP receiver from {@code udpPort} and {@code clientIP}, never resolving
 * names. Pushes go to the address the request came from (the client's receiver listens on every
 * address of its host), not to whatever {@code clientIP} names: otherwise anyone could aim this
 * node's pushes at a third party. {@code nacre.naming.push.udp-to-client-ip=true} trusts
 * {@code clientIP}, for clients behind a proxy on a trusted network.
 */
final class UdpReceivers {
  private static final Pattern IPV4 =
      Pattern.compile("^((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)$");
  private static final Pattern IPV6 = Pattern.compile("^[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*$");

  private UdpReceivers() {}

  /** Empty when no push is asked for ({@code udpPort} absent or 0, or no {@code clientIP}). */
  static Optional<InetSocketAddress> of(ApiRequest r, boolean toClientIp) {
    int port = r.intParam("udpPort").orElse(0);
    if (port == 0) {
      return Optional.empty();
    }
    if (port < 0 || port > 65535) {
      throw HttpError.badRequest("Param 'udpPort' is illegal, the value should be between 0 and 65535.");
    }
    Optional<String> ip = r.param("clientIP");
    if (ip.isEmpty()) {
      return Optional.empty();
    }
    String literal = ip.get();
    if (!IPV4.matcher(literal).matches() && !IPV6.matcher(literal).matches()) {
      throw HttpError.badRequest("Param 'clientIP' must be an IP address for UDP push, got '" + literal + "'.");
    }
    try {
      // A literal: parsed, never looked up.
      InetAddress named = InetAddress.getByName(literal);
      return Optional.of(new InetSocketAddress(toClientIp ? named : r.source().orElse(named), port));
    } catch (UnknownHostException e) {
      throw HttpError.badRequest("Param 'clientIP' must be an IP address for UDP push, got '" + literal + "'.");
    }
  }
}
