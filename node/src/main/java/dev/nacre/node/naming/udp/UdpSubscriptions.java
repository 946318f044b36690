package dev.nacre.node.naming.udp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nacre.naming.api.Subscriptions;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.node.naming.http.UdpSubscriber;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Nacos 1.x subscriptions: a list call with {@code udpPort} subscribes that UDP receiver to the
 * service for a lease, renewed by each later list call (the client polls every {@code
 * cacheMillis}, and up to every 60 s while the service is empty); a lease that runs out ends the
 * subscription. A client that stops acknowledging is dropped sooner by the push core; its next
 * list call subscribes it again. Thread-safe.
 */
public final class UdpSubscriptions implements UdpSubscriber, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(UdpSubscriptions.class);
  /** Bound on leases: list calls name any address, so memory must not follow them unbounded. */
  static final int MAX_LEASES = 100_000;

  private final String node;
  private final Subscriptions subscriptions;
  private final UdpPushChannel channel;
  private final Duration lease;
  private final Clock clock;
  private final ObjectMapper mapper = new ObjectMapper();
  private final Map<String, UdpPushTarget> targets = new ConcurrentHashMap<>();
  /** Last list call per (client, service), in clock millis. */
  private final Map<Lease, Long> lastListed = new ConcurrentHashMap<>();
  private final java.util.concurrent.atomic.AtomicLong refused = new java.util.concurrent.atomic.AtomicLong();
  private ScheduledFuture<?> sweeper;

  private record Lease(String clientId, ServiceKey service) {}

  private UdpSubscriptions(String node, Subscriptions subscriptions, UdpPushChannel channel, Duration lease, Clock clock) {
    this.node = node;
    this.subscriptions = subscriptions;
    this.channel = channel;
    this.lease = lease;
    this.clock = clock;
  }

  /** Opens the UDP socket on {@code bind} (any free port) and sweeps expired leases on {@code scheduler}. */
  public static UdpSubscriptions start(String node, InetSocketAddress bind, Subscriptions subscriptions,
      Duration lease, Clock clock, ScheduledExecutorService scheduler) throws IOException {
    UdpSubscriptions udp = new UdpSubscriptions(node, subscriptions, UdpPushChannel.open(node, bind), lease, clock);
    long period = Math.max(100, lease.toMillis() / 4);
    udp.sweeper = scheduler.scheduleWithFixedDelay(udp::expire, period, period, TimeUnit.MILLISECONDS);
    return udp;
  }

  public UdpPushChannel channel() {
    return channel;
  }

  @Override
  public void listed(ServiceKey service, Set<String> clusters, String clustersAsAsked, InetSocketAddress receiver) {
    String clientId = UdpPushTarget.clientId(receiver, clustersAsAsked);
    if (lastListed.size() >= MAX_LEASES && !lastListed.containsKey(new Lease(clientId, service))) {
      if (refused.getAndIncrement() % 1000 == 0) {
        log.warn("[{}] {} UDP subscriptions already; {} is not subscribed to {} (it still polls). Are list calls"
            + " with random udpPort values coming in?", node, MAX_LEASES, receiver, service.groupedName());
      }
      return;
    }
    UdpPushTarget target = targets.computeIfAbsent(
        clientId, id -> new UdpPushTarget(node, receiver, clustersAsAsked, channel, mapper));
    Long previous = lastListed.put(new Lease(clientId, service), clock.millis());
    // Subscribe when new, or again when the push core dropped the client meanwhile.
    if (previous == null || !subscriptions.servicesOf(clientId).contains(service)) {
      subscriptions.subscribe(service, clusters, target);
      log.debug("[{}] {} subscribed to {} over UDP", node, clientId, service.groupedName());
    }
  }

  /** Subscriptions whose client has not listed the service for a whole lease end. */
  void expire() {
    long now = clock.millis();
    for (Iterator<Map.Entry<Lease, Long>> it = lastListed.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<Lease, Long> e = it.next();
      if (now - e.getValue() < lease.toMillis()) {
        continue;
      }
      Lease l = e.getKey();
      it.remove();
      subscriptions.unsubscribe(l.service(), l.clientId());
    }
    Set<String> leased = new java.util.HashSet<>();
    lastListed.keySet().forEach(l -> leased.add(l.clientId()));
    for (String clientId : Set.copyOf(targets.keySet())) {
      if (!leased.contains(clientId)) {
        targets.remove(clientId);
        log.info("[{}] UDP subscriber {} expired: no list call for {} ms", node, clientId, lease.toMillis());
      }
    }
  }

  /** UDP subscriptions with a running lease, for tests and metrics. */
  public int size() {
    return lastListed.size();
  }

  @Override
  public void close() {
    if (sweeper != null) {
      sweeper.cancel(false);
    }
    channel.close();
  }
}
