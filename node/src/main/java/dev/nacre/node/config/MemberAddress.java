package dev.nacre.node.config;

import com.google.common.net.HostAndPort;

/**
 * Where a member is reached: its host and main (HTTP) port P, from which every other port of the
 * member derives as Nacos derives them. The text form {@code host:P} is also the member's id.
 *
 * @param host a name or an IP literal (IPv6 without brackets)
 * @param port the main (HTTP) port P
 */
public record MemberAddress(String host, int port) {
  /** Offset of the Raft port below P. */
  private static final int RAFT_OFFSET = -1000;
  /** Offset of the Nacos 2.x client gRPC port above P, as every Nacos client derives it. */
  private static final int CLIENT_GRPC_OFFSET = 1000;
  /** Offset of the peer port (Distro, forwards, pings) above P. */
  private static final int PEER_OFFSET = 1001;

  public MemberAddress {
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("a member address needs a host");
    }
    if (port + RAFT_OFFSET < 1 || port + PEER_OFFSET > 65535) {
      throw new IllegalArgumentException("port " + port + " of " + host + " leaves no room for the ports derived"
          + " from it (P-1000 to P+1001): use " + (1 - RAFT_OFFSET) + " to " + (65535 - PEER_OFFSET));
    }
  }

  /** Parses {@code host:port} (IPv6 in brackets); throws {@link IllegalArgumentException} saying why not. */
  public static MemberAddress parse(String text) {
    HostAndPort parsed;
    try {
      parsed = HostAndPort.fromString(text.strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'" + text + "' is not host:port (" + e.getMessage() + ")", e);
    }
    if (!parsed.hasPort() || parsed.getHost().isEmpty()) {
      throw new IllegalArgumentException("'" + text + "' is not host:port");
    }
    return new MemberAddress(parsed.getHost(), parsed.getPort());
  }

  /** The member whose Raft port is at {@code host:raftPort}, as the Raft group lists it. */
  public static MemberAddress ofRaftAddress(String raftAddress) {
    HostAndPort parsed = HostAndPort.fromString(raftAddress.strip());
    return new MemberAddress(parsed.getHost(), parsed.getPort() - RAFT_OFFSET);
  }

  public int raftPort() {
    return port + RAFT_OFFSET;
  }

  public int clientGrpcPort() {
    return port + CLIENT_GRPC_OFFSET;
  }

  public int peerPort() {
    return port + PEER_OFFSET;
  }

  /** This member's id in the Raft group: its address with only id-safe characters. */
  public String raftPeerId() {
    return toString().replaceAll("[^A-Za-z0-9_-]", "_");
  }

  /** {@code host:raftPort}, as the Raft group lists the member. */
  public String raftAddress() {
    return HostAndPort.fromParts(host, raftPort()).toString();
  }

  /** {@code host:P}: the member's id and what operators list in {@code nacre.members}. */
  @Override
  public String toString() {
    return HostAndPort.fromParts(host, port).toString();
  }
}
