package dev.nacre.node.cluster.peer;

import dev.nacre.node.config.MemberAddress;
import dev.nacre.proto.peer.PeerGrpc;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.thirdparty.io.grpc.ConnectivityState;
import org.apache.ratis.thirdparty.io.grpc.ManagedChannel;
import org.apache.ratis.thirdparty.io.grpc.netty.NettyChannelBuilder;

/**
 * One gRPC channel to each other member's peer port (P+1001), created on first use and kept: mutual
 * TLS with this member's certificate ({@link PeerAuth}), every call naming this member. Thread-safe.
 */
public final class PeerChannels implements AutoCloseable {
  private final MemberAddress self;
  private final PeerAuth auth;
  /** By member id: the ids of Distro, ownership and the member table are member addresses' text. */
  private final Map<String, ManagedChannel> channels = new ConcurrentHashMap<>();
  private volatile boolean closed;

  public PeerChannels(MemberAddress self, PeerAuth auth) {
    this.self = self;
    this.auth = auth;
  }

  /** An async stub to {@code member} (its id: its address {@code host:port}). */
  public PeerGrpc.PeerFutureStub stub(String member) {
    return PeerGrpc.newFutureStub(channel(member));
  }

  /** A streaming stub to {@code member}, on the same channel as {@link #stub}. */
  public PeerGrpc.PeerStub streamingStub(String member) {
    return PeerGrpc.newStub(channel(member));
  }

  private ManagedChannel channel(String member) {
    if (closed) {
      throw new IllegalStateException("peer channels of " + self + " are closed");
    }
    return openChannel(member);
  }

  private ManagedChannel openChannel(String member) {
    return channels.computeIfAbsent(member, id -> open(MemberAddress.parse(id)));
  }

  /**
   * Starts connecting to {@code member} now, so that the first call does not wait for the
   * connection and its TLS handshake (a quarter of a second and more on a starting node).
   */
  public void connect(MemberAddress member) {
    if (closed) {
      throw new IllegalStateException("peer channels of " + self + " are closed");
    }
    channels.computeIfAbsent(member.toString(), id -> open(member)).getState(true);
  }

  /**
   * Lets the next call to {@code member} connect at once. gRPC waits ever longer between
   * reconnects to a peer it could not reach (up to minutes); a restarted peer would stay DOWN
   * here that long, and get none of this member's records or digests.
   */
  public void reconnectNow(String member) {
    ManagedChannel c = channels.get(member);
    if (c != null) {
      c.resetConnectBackoff();
    }
  }

  /**
   * Calls {@code onLost} each time this member's connection to {@code member}, once up, goes down
   * (on the gRPC thread that saw it, so it must not block), until the channels close. The peer
   * port shares its process with the member's Raft port: a closed connection is the first sign,
   * within milliseconds, that the process died.
   */
  public void watchConnection(String member, Runnable onLost) {
    if (!closed) {
      ManagedChannel channel = openChannel(member);
      watchFrom(channel, channel.getState(false), onLost);
    }
  }

  private void watchFrom(ManagedChannel channel, ConnectivityState seen, Runnable onLost) {
    channel.notifyWhenStateChanged(seen, () -> {
      ConnectivityState now = channel.getState(false);
      if (closed || now == ConnectivityState.SHUTDOWN) {
        return;
      }
      if (seen == ConnectivityState.READY && now != ConnectivityState.READY) {
        onLost.run();
      }
      watchFrom(channel, now, onLost);
    });
  }

  private ManagedChannel open(MemberAddress address) {
    return NettyChannelBuilder.forAddress(address.host(), address.peerPort())
        .sslContext(auth.clientTls())
        .intercept(auth.client())
        .maxInboundMessageSize(64 * 1024 * 1024)
        .build();
  }

  @Override
  public void close() {
    closed = true;
    channels.values().forEach(ManagedChannel::shutdownNow);
    for (ManagedChannel c : channels.values()) {
      try {
        c.awaitTermination(2, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
