package dev.nacre.naming.push;

import dev.nacre.naming.api.PushTarget;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.model.ServiceView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The push protocol as plain state: events in (subscribe, change, ack, failure, time), orders out.
 * No threads, no clock: every event carries {@code now} in milliseconds. Not thread-safe; {@link
 * PushService} serialises the calls.
 *
 * <p>Per service at most one pending change and at most one push per merge window (the first
 * change after a quiet window goes at once, the rest of a burst one window later); per subscription at most one push in flight, and when it completes, the newest list goes
 * next. A push whose list equals the last acknowledged one is skipped, except the first push after
 * a subscribe.
 */
final class PushCore {
  private static final Logger log = LoggerFactory.getLogger(PushCore.class);
  private static final long NONE = Long.MAX_VALUE;

  private final String node;
  private final PushConfig config;
  private final ViewSource views;
  private final Map<ServiceKey, Map<String, Subscription>> byService = new HashMap<>();
  private final Map<String, Set<ServiceKey>> byClient = new HashMap<>();
  /** Services changed and not pushed yet, with the time their push is due. */
  private final Map<ServiceKey, Long> pendingChanges = new LinkedHashMap<>();
  /** When the service's list was last pushed to anyone; entries older than the window are pruned. */
  private final Map<ServiceKey, Long> lastPushed = new HashMap<>();
  /** Exactly the subscriptions that are dirty with no push in flight: the only ones due() looks at. */
  private final Set<Subscription> waiting = new LinkedHashSet<>();
  private long lastSeq;

  PushCore(String node, PushConfig config, ViewSource views) {
    this.node = node;
    this.config = config;
    this.views = views;
  }

  private static final class Subscription {
    final ServiceKey service;
    final String clientId;
    Set<String> clusters;
    PushTarget target;
    /** A newer list than the one the client acknowledged may exist. */
    boolean dirty = true;
    /** The next push goes out even if its list equals the acknowledged one. */
    boolean forced = true;
    long dueAt;
    long inFlightSeq;
    int failures;
    long unackedSince = NONE;
    String ackedChecksum = "";

    Subscription(ServiceKey service, String clientId) {
      this.service = service;
      this.clientId = clientId;
    }
  }

  void subscribe(ServiceKey service, Set<String> clusters, PushTarget target, long now) {
    String clientId = target.clientId();
    Subscription sub = byService.computeIfAbsent(service, k -> new HashMap<>())
        .computeIfAbsent(clientId, id -> new Subscription(service, id));
    byClient.computeIfAbsent(clientId, id -> new TreeSet<>(PushCore::compare)).add(service);
    sub.clusters = Set.copyOf(clusters);
    sub.target = target;
    sub.dirty = true;
    sub.forced = true;
    sub.dueAt = now + config.mergeDelay().toMillis();
    sub.inFlightSeq = 0;
    sub.failures = 0;
    sub.unackedSince = NONE;
    track(sub);
  }

  /** Keeps {@link #waiting} in step with the subscription's state. */
  private void track(Subscription sub) {
    if (sub.dirty && sub.inFlightSeq == 0) {
      waiting.add(sub);
    } else {
      waiting.remove(sub);
    }
  }

  void unsubscribe(ServiceKey service, String clientId) {
    Map<String, Subscription> subs = byService.get(service);
    Subscription sub = subs == null ? null : subs.remove(clientId);
    if (sub == null) {
      return;
    }
    waiting.remove(sub);
    if (subs.isEmpty()) {
      byService.remove(service);
      pendingChanges.remove(service);
      lastPushed.remove(service);
    }
    Set<ServiceKey> services = byClient.get(clientId);
    services.remove(service);
    if (services.isEmpty()) {
      byClient.remove(clientId);
    }
  }

  void removeClient(String clientId) {
    Set<ServiceKey> services = byClient.get(clientId);
    if (services == null) {
      return;
    }
    for (ServiceKey service : List.copyOf(services)) {
      unsubscribe(service, clientId);
    }
  }

  List<ServiceKey> servicesOf(String clientId) {
    Set<ServiceKey> services = byClient.get(clientId);
    return services == null ? List.of() : List.copyOf(services);
  }

  List<String> subscribersOf(ServiceKey service) {
    Map<String, Subscription> subs = byService.get(service);
    return subs == null ? List.of() : List.copyOf(new TreeSet<>(subs.keySet()));
  }

  /** Whether any client subscribes to {@code service}. */
  boolean watched(ServiceKey service) {
    return byService.containsKey(service);
  }

  /** Total subscriptions, for metrics and tests. */
  int size() {
    return byService.values().stream().mapToInt(Map::size).sum();
  }

  /**
   * A change of the service. The first change after a quiet window is pushed at once (no added
   * latency); later ones wait until one window after that push and go together.
   */
  void serviceChanged(ServiceKey service, long now) {
    if (watched(service) && !pendingChanges.containsKey(service)) {
      long last = lastPushed.getOrDefault(service, Long.MIN_VALUE / 2);
      pendingChanges.put(service, Math.max(now, last + config.mergeDelay().toMillis()));
    }
  }

  /** The pushes to send now; each is in flight until {@link #acked} or {@link #failed}. */
  List<PushOrder> due(long now) {
    lastPushed.values().removeIf(at -> at + config.mergeDelay().toMillis() <= now);
    for (Iterator<Map.Entry<ServiceKey, Long>> it = pendingChanges.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<ServiceKey, Long> change = it.next();
      if (change.getValue() > now) {
        continue;
      }
      it.remove();
      for (Subscription sub : byService.getOrDefault(change.getKey(), Map.of()).values()) {
        sub.dirty = true;
        if (sub.dueAt == NONE) {
          sub.dueAt = now;
        }
        track(sub);
      }
    }
    List<PushOrder> orders = new ArrayList<>();
    Map<String, ServiceView> built = new HashMap<>();
    for (Subscription sub : List.copyOf(waiting)) {
      if (sub.dueAt > now) {
        continue;
      }
      ServiceView view;
      try {
        view = built.computeIfAbsent(
            sub.service + "|" + new TreeSet<>(sub.clusters), k -> views.view(sub.service, sub.clusters));
      } catch (RuntimeException e) {
        log.warn("[{}] cannot build the list of {} for subscriber {}; not pushed: {}",
            node, sub.service.groupedName(), sub.clientId, e.toString());
        sub.dirty = false;
        sub.dueAt = NONE;
        track(sub);
        continue;
      }
      sub.dirty = false;
      sub.dueAt = NONE;
      track(sub);
      if (!sub.forced && view.checksum().equals(sub.ackedChecksum)) {
        continue;
      }
      boolean forced = sub.forced;
      sub.forced = false;
      sub.inFlightSeq = ++lastSeq;
      // Only pushes of changes open a window: neither a change nobody's list shows nor a new
      // subscriber's first push may delay the next change.
      if (!forced) {
        lastPushed.put(sub.service, now);
      }
      if (sub.unackedSince == NONE) {
        sub.unackedSince = now;
      }
      orders.add(new PushOrder(sub.service, sub.clientId, sub.target, view, sub.inFlightSeq, forced));
    }
    return orders;
  }

  void acked(PushOrder order, long now) {
    Subscription sub = inFlight(order);
    if (sub == null) {
      return;
    }
    sub.inFlightSeq = 0;
    sub.failures = 0;
    sub.unackedSince = NONE;
    sub.ackedChecksum = order.view().checksum();
    if (sub.dirty) {
      sub.dueAt = now;
    }
    track(sub);
  }

  /**
   * Schedules a retry with backoff, or drops the client when it has not acknowledged anything
   * for {@link PushConfig#dropAfter()}.
   *
   * @return true when the client was dropped
   */
  boolean failed(PushOrder order, Throwable cause, long now) {
    Subscription sub = inFlight(order);
    if (sub == null) {
      return false;
    }
    sub.inFlightSeq = 0;
    sub.failures++;
    if (now - sub.unackedSince >= config.dropAfter().toMillis()) {
      log.info("[{}] dropped push subscriber {}: no acknowledgement for {} ms ({} failed pushes, last: {})",
          node, sub.clientId, now - sub.unackedSince, sub.failures, cause.toString());
      removeClient(sub.clientId);
      return true;
    }
    log.debug("[{}] push of {} to {} failed ({}), retry {}", node, sub.service.groupedName(),
        sub.clientId, cause, sub.failures);
    sub.dirty = true;
    sub.forced |= order.forced();
    sub.dueAt = now + backoff(sub.failures);
    track(sub);
    return false;
  }

  private long backoff(int failures) {
    long first = config.retryDelay().toMillis();
    long max = config.maxRetryDelay().toMillis();
    int shift = Math.min(failures - 1, 30);
    return Math.min(max, first << shift);
  }

  /** The earliest time at which {@link #due} has something to do; {@code Long.MAX_VALUE} if none. */
  long nextDueAt() {
    long next = NONE;
    for (long at : pendingChanges.values()) {
      next = Math.min(next, at);
    }
    for (Subscription sub : waiting) {
      next = Math.min(next, sub.dueAt);
    }
    return next;
  }

  private Subscription inFlight(PushOrder order) {
    Subscription sub = byService.getOrDefault(order.service(), Map.of()).get(order.clientId());
    return sub != null && sub.inFlightSeq == order.seq() ? sub : null;
  }

  private static int compare(ServiceKey a, ServiceKey b) {
    int c = a.namespaceId().compareTo(b.namespaceId());
    if (c == 0) {
      c = a.group().compareTo(b.group());
    }
    return c == 0 ? a.name().compareTo(b.name()) : c;
  }
}
