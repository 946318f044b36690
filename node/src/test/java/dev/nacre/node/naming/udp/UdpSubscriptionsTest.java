package dev.nacre.node.naming.udp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.naming.api.PushTarget;
import dev.nacre.naming.api.Subscriptions;
import dev.nacre.naming.model.ServiceKey;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Leases of 1.x UDP subscriptions on a hand-moved clock, against a recording subscription table. */
@Timeout(30)
class UdpSubscriptionsTest {
  private static final ServiceKey SVC = new ServiceKey("public", "DEFAULT_GROUP", "svc");
  private static final ServiceKey OTHER = new ServiceKey("public", "DEFAULT_GROUP", "other");
  private final HandClock clock = new HandClock();
  private final RecordingSubscriptions table = new RecordingSubscriptions();
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
  private final UdpSubscriptions udp;
  private final InetSocketAddress client = new InetSocketAddress(InetAddress.getLoopbackAddress(), 40_000);

  UdpSubscriptionsTest() throws Exception {
    // The sweeper's own period is a quarter of a day: the test sweeps by hand.
    udp = UdpSubscriptions.start("test", new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), table,
        Duration.ofDays(1), clock, scheduler);
  }

  @AfterEach
  void close() {
    udp.close();
    scheduler.shutdownNow();
  }

  static final class HandClock extends Clock {
    volatile long millis = 1_000_000;

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis);
    }
  }

  /** A subscription table that records calls. */
  static final class RecordingSubscriptions implements Subscriptions {
    final Map<String, Set<ServiceKey>> byClient = new TreeMap<>();
    final List<String> calls = new ArrayList<>();

    @Override
    public synchronized void subscribe(ServiceKey service, Set<String> clusters, PushTarget target) {
      calls.add("subscribe " + target.clientId() + " " + service.name() + " " + new TreeSet<>(clusters));
      byClient.computeIfAbsent(target.clientId(), c -> new TreeSet<>((x, y) -> x.name().compareTo(y.name()))).add(service);
    }

    @Override
    public synchronized void unsubscribe(ServiceKey service, String clientId) {
      calls.add("unsubscribe " + clientId + " " + service.name());
      Set<ServiceKey> s = byClient.get(clientId);
      if (s != null) {
        s.remove(service);
      }
    }

    @Override
    public synchronized void removeClient(String clientId) {
      byClient.remove(clientId);
    }

    @Override
    public synchronized List<ServiceKey> servicesOf(String clientId) {
      return List.copyOf(byClient.getOrDefault(clientId, Set.of()));
    }

    @Override
    public synchronized List<String> subscribersOf(ServiceKey service) {
      return byClient.entrySet().stream().filter(e -> e.getValue().contains(service)).map(Map.Entry::getKey).toList();
    }
  }

  @Test
  void aListCallSubscribesOnceAndItsLeaseRunsOut() {
    UdpSubscriptions leases = udp;
    leases.listed(SVC, Set.of("a"), "a", client);
    leases.listed(SVC, Set.of("a"), "a", client);
    leases.listed(OTHER, Set.of(), "", client);
    leases.listed(SVC, Set.of("a", "b"), "b,a", client);
    assertThat(table.calls).as("one subscription per filter the client polls with").containsExactly(
        "subscribe udp:127.0.0.1:40000?clusters=a svc [a]", "subscribe udp:127.0.0.1:40000 other []",
        "subscribe udp:127.0.0.1:40000?clusters=b,a svc [a, b]");

    clock.millis += Duration.ofDays(1).toMillis();
    leases.listed(OTHER, Set.of(), "", client);
    leases.expire();
    assertThat(leases.size()).as("svc's leases were not renewed").isEqualTo(1);
    assertThat(table.calls).contains("unsubscribe udp:127.0.0.1:40000?clusters=a svc",
        "unsubscribe udp:127.0.0.1:40000?clusters=b,a svc");

    clock.millis += Duration.ofDays(1).toMillis();
    leases.expire();
    assertThat(leases.size()).isZero();
    assertThat(table.byClient.values()).allMatch(Set::isEmpty);
  }

  @Test
  void aClientDroppedByThePushCoreIsSubscribedAgainByItsNextListCall() {
    udp.listed(SVC, Set.of(), "", client);
    table.removeClient("udp:127.0.0.1:40000");
    udp.listed(SVC, Set.of(), "", client);
    assertThat(table.calls).containsExactly("subscribe udp:127.0.0.1:40000 svc []", "subscribe udp:127.0.0.1:40000 svc []");
    assertThat(table.servicesOf("udp:127.0.0.1:40000")).containsExactly(SVC);
  }
}
