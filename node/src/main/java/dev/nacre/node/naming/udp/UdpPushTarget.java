package dev.nacre.node.naming.udp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nacre.naming.api.PushTarget;
import dev.nacre.naming.model.ServiceView;
import dev.nacre.node.naming.http.Views;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.zip.GZIPOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Nacos 1.x client's UDP receiver with one clusters filter: {@code udp:ip:port}, or {@code
 * udp:ip:port?clusters=a,b} (a 1.x client polls, and so subscribes, each service once per filter
 * it asked for, and files each list under the filter's text). A push is one datagram, {@code
 * {"type":"dom","data":"<the /instance/list JSON>","lastRefTime":<push id>}}, gzipped above 1 KiB
 * (the client checks the gzip magic), acknowledged by the client's {@code push-ack} carrying the
 * push id.
 */
public final class UdpPushTarget implements PushTarget {
  /** 1.x UDP receivers subscribe as {@code udp:ip:port}; they are no connection. */
  private static final String PREFIX = "udp:";
  private static final Logger log = LoggerFactory.getLogger(UdpPushTarget.class);
  static final int GZIP_ABOVE = 1024;

  private final String node;
  private final InetSocketAddress address;
  private final String clientId;
  private final UdpPushChannel channel;
  private final ObjectMapper mapper;
  /** The clusters parameter as the client wrote it. */
  private final String clustersAsAsked;

  UdpPushTarget(String node, InetSocketAddress address, String clustersAsAsked, UdpPushChannel channel,
      ObjectMapper mapper) {
    this.node = node;
    this.address = address;
    this.clustersAsAsked = clustersAsAsked;
    this.clientId = clientId(address, clustersAsAsked);
    this.channel = channel;
    this.mapper = mapper;
  }

  static String clientId(InetSocketAddress address, String clustersAsAsked) {
    String id = PREFIX + address.getAddress().getHostAddress() + ":" + address.getPort();
    return clustersAsAsked.isEmpty() ? id : id + "?clusters=" + clustersAsAsked;
  }

  /**
   * The receiver's IP literal and port in a client id made by {@link #clientId}; empty for the id
   * of anything else (a gRPC connection).
   */
  public static Optional<Map.Entry<String, Integer>> receiverOf(String clientId) {
    if (!clientId.startsWith(PREFIX)) {
      return Optional.empty();
    }
    String address = clientId.substring(PREFIX.length()).split("\\?", 2)[0];
    int colon = address.lastIndexOf(':'); // an IPv6 literal has colons of its own
    try {
      return Optional.of(Map.entry(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1))));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  @Override
  public String clientId() {
    return clientId;
  }

  @Override
  public CompletableFuture<Void> push(ServiceView view) {
    long pushId = channel.nextPushId();
    byte[] datagram = encode(view, clustersAsAsked, pushId);
    if (datagram.length > UdpPushChannel.MAX_DATAGRAM) {
      // Nothing to retry: the client gets the list on its next poll.
      log.warn("[{}] the list of {} is {} bytes gzipped, more than one UDP datagram holds; {} gets it by polling",
          node, view.service().groupedName(), datagram.length, clientId);
      return CompletableFuture.completedFuture(null);
    }
    return channel.send(address, pushId, datagram);
  }

  byte[] encode(ServiceView view, String clusters, long pushId) {
    Map<String, Object> data = Views.serviceList(view);
    data.put("clusters", clusters);
    Map<String, Object> packet = new LinkedHashMap<>();
    packet.put("type", "dom");
    try {
      packet.put("data", mapper.writeValueAsString(data));
      packet.put("lastRefTime", pushId);
      byte[] json = mapper.writeValueAsBytes(packet);
      return json.length > GZIP_ABOVE ? gzip(json) : json;
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the push of " + view.service().groupedName(), e);
    }
  }

  static byte[] gzip(byte[] bytes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length / 4 + 64);
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  @Override
  public String toString() {
    return clientId;
  }
}
