package dev.nacre.node.naming.udp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's UDP socket for Nacos 1.x pushes: sends push datagrams and matches the clients'
 * {@code push-ack} answers (which come back to this socket) by sender address and push id.
 * Anything else that arrives is logged at DEBUG and dropped. Thread-safe.
 */
public final class UdpPushChannel implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(UdpPushChannel.class);
  /** The 1.x client reads into a 64 KiB buffer; an IPv4 datagram carries at most this. */
  static final int MAX_DATAGRAM = 65_507;

  private final String node;
  private final DatagramChannel channel;
  private final ObjectMapper mapper = new ObjectMapper();
  private final Map<AckKey, CompletableFuture<Void>> awaitingAck = new ConcurrentHashMap<>();
  private final AtomicLong lastPushId = new AtomicLong();
  private final AtomicLong ignored = new AtomicLong();
  private final AtomicLong acked = new AtomicLong();
  private final Thread receiver;
  private volatile boolean closed;

  private record AckKey(SocketAddress from, long pushId) {}

  private UdpPushChannel(String node, DatagramChannel channel) {
    this.node = node;
    this.channel = channel;
    this.receiver = new Thread(this::receiveLoop, node + "-udp-push");
    receiver.setDaemon(true);
  }

  /** Binds the socket (port 0: any free port) and starts reading acknowledgements. */
  public static UdpPushChannel open(String node, InetSocketAddress bind) throws IOException {
    DatagramChannel channel = DatagramChannel.open();
    try {
      channel.bind(bind);
    } catch (IOException e) {
      channel.close();
      throw new IOException("cannot bind the UDP push socket on " + bind + ": " + e.getMessage(), e);
    }
    UdpPushChannel push = new UdpPushChannel(node, channel);
    push.receiver.start();
    log.info("[{}] UDP push for Nacos 1.x clients on {}", node, push.localAddress());
    return push;
  }

  public InetSocketAddress localAddress() {
    try {
      return (InetSocketAddress) channel.getLocalAddress();
    } catch (IOException e) {
      throw new IllegalStateException("UDP push socket closed", e);
    }
  }

  /** A fresh id for the next push; the client echoes it in its ack. */
  long nextPushId() {
    return lastPushId.incrementAndGet();
  }

  /** Pushes acknowledged by their client. */
  public long ackedPushes() {
    return acked.get();
  }

  /** Datagrams received that were not an awaited ack (garbage, late or unknown acks). */
  public long ignoredDatagrams() {
    return ignored.get();
  }

  /**
   * Sends one datagram; the future completes when the client at {@code to} acknowledges {@code
   * pushId}, or exceptionally when sending fails. The caller bounds the wait (the push core times
   * it out); completing it in any way forgets it here.
   */
  CompletableFuture<Void> send(InetSocketAddress to, long pushId, byte[] datagram) {
    CompletableFuture<Void> acked = new CompletableFuture<>();
    AckKey key = new AckKey(to, pushId);
    awaitingAck.put(key, acked);
    acked.whenComplete((ok, e) -> awaitingAck.remove(key, acked));
    try {
      channel.send(ByteBuffer.wrap(datagram), to);
    } catch (IOException | RuntimeException e) {
      acked.completeExceptionally(new IOException("cannot send a UDP push to " + to + ": " + e, e));
    }
    return acked;
  }

  private void receiveLoop() {
    ByteBuffer buffer = ByteBuffer.allocate(MAX_DATAGRAM + 1);
    while (!closed) {
      SocketAddress from;
      try {
        buffer.clear();
        from = channel.receive(buffer);
      } catch (ClosedChannelException e) {
        return;
      } catch (IOException e) {
        if (!closed) {
          log.warn("[{}] UDP push socket: {}", node, e.toString());
        }
        continue;
      }
      buffer.flip();
      byte[] bytes = new byte[buffer.remaining()];
      buffer.get(bytes);
      try {
        onDatagram(from, bytes);
      } catch (RuntimeException e) {
        ignored.incrementAndGet();
        log.debug("[{}] dropped a datagram from {} that failed handling: {}", node, from, e.toString());
      }
    }
  }

  /** A 1.x client answers {@code {"type": "push-ack", "lastRefTime":"<push id>", "data":""}}. */
  private void onDatagram(SocketAddress from, byte[] bytes) {
    JsonNode ack;
    try {
      ack = mapper.readTree(bytes);
    } catch (IOException e) {
      ignored.incrementAndGet();
      log.debug("[{}] dropped a datagram from {} that is not JSON ({} bytes)", node, from, bytes.length);
      return;
    }
    long pushId = ack == null || !ack.isObject() || !ack.hasNonNull("lastRefTime") ? -1
        : ack.get("lastRefTime").asLong(-1);
    CompletableFuture<Void> awaited = pushId < 0 ? null : awaitingAck.get(new AckKey(from, pushId));
    if (awaited == null) {
      ignored.incrementAndGet();
      log.debug("[{}] dropped an unexpected datagram from {}: {}", node, from, abbreviate(bytes));
      return;
    }
    if (awaited.complete(null)) {
      acked.incrementAndGet();
    }
  }

  private static String abbreviate(byte[] bytes) {
    String text = new String(bytes, 0, Math.min(bytes.length, 200), java.nio.charset.StandardCharsets.UTF_8);
    return bytes.length > 200 ? text + "..." : text;
  }

  @Override
  public void close() {
    closed = true;
    try {
      channel.close();
    } catch (IOException e) {
      log.debug("[{}] closing the UDP push socket: {}", node, e.toString());
    }
    awaitingAck.values().forEach(f -> f.completeExceptionally(new IOException("node stopping")));
  }
}
