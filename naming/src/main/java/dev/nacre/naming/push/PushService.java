package dev.nacre.naming.push;

import dev.nacre.naming.api.PushTarget;
import dev.nacre.naming.api.Subscriptions;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.registry.ServiceChangeListener;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The push core's shell: one thread that feeds {@link PushCore} with index changes, time and
 * push completions, and sends what it orders. Register it on the registry index as a {@link
 * ServiceChangeListener}; the transports call it as {@link Subscriptions}.
 *
 * <p>Thread-safe. The change callback only marks the service in a set (bounded by the number of
 * services) and wakes the thread, so the index never waits for pushes. Pushes are sent outside
 * the core's lock; completions come back through the push thread.
 */
public final class PushService implements Subscriptions, ServiceChangeListener, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PushService.class);

  private final String node;
  private final PushConfig config;
  private final Clock clock;
  private final PushCore core;
  private volatile PushObserver observer = PushObserver.NONE;
  private final ScheduledThreadPoolExecutor thread;
  private final Set<ServiceKey> changed = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean pumpQueued = new AtomicBoolean();
  private volatile boolean closed;
  // Only touched on the push thread.
  private ScheduledFuture<?> timer;
  private long timerAt = Long.MAX_VALUE;

  public PushService(String node, PushConfig config, Clock clock, ViewSource views) {
    this.node = node;
    this.config = config;
    this.clock = clock;
    this.core = new PushCore(node, config, views);
    this.thread = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, node + "-push");
      t.setDaemon(true);
      return t;
    });
    thread.setRemoveOnCancelPolicy(true);
    log.info("[{}] push with {}", node, config);
  }

  public PushConfig config() {
    return config;
  }

  @Override
  public void onServiceChanged(ServiceKey service) {
    if (closed) {
      return;
    }
    synchronized (core) {
      // Most changes are to services that no client of this node watches: no wake-up for those.
      // A subscription made after this check is first pushed the view as it is then.
      if (!core.watched(service)) {
        return;
      }
    }
    changed.add(service);
    wake();
  }

  @Override
  public void subscribe(ServiceKey service, Set<String> clusters, PushTarget target) {
    synchronized (core) {
      core.subscribe(service, clusters, target, clock.millis());
    }
    log.debug("[{}] {} subscribed to {} {}", node, target.clientId(), service.groupedName(), clusters);
    wake();
  }

  @Override
  public void unsubscribe(ServiceKey service, String clientId) {
    synchronized (core) {
      core.unsubscribe(service, clientId);
    }
  }

  @Override
  public void removeClient(String clientId) {
    synchronized (core) {
      core.removeClient(clientId);
    }
  }

  @Override
  public List<ServiceKey> servicesOf(String clientId) {
    synchronized (core) {
      return core.servicesOf(clientId);
    }
  }

  @Override
  public List<String> subscribersOf(ServiceKey service) {
    synchronized (core) {
      return core.subscribersOf(service);
    }
  }

  /** Subscriptions held on this node, over all clients and services. */
  public int size() {
    synchronized (core) {
      return core.size();
    }
  }

  private void wake() {
    if (!closed && pumpQueued.compareAndSet(false, true)) {
      run(this::pump);
    }
  }

  private void run(Runnable task) {
    try {
      thread.execute(task);
    } catch (RejectedExecutionException e) {
      // Closed meanwhile: pushes stop with the node.
    }
  }

  private void pump() {
    pumpQueued.set(false);
    List<PushOrder> orders;
    long next;
    synchronized (core) {
      long now = clock.millis();
      for (ServiceKey service : changed) {
        changed.remove(service);
        core.serviceChanged(service, now);
      }
      orders = core.due(now);
      next = core.nextDueAt();
    }
    for (PushOrder order : orders) {
      send(order);
    }
    arm(next);
  }

  /** From now on tells {@code observer} how each push ends. */
  public void observe(PushObserver observer) {
    this.observer = java.util.Objects.requireNonNull(observer, "observer");
  }

  private void send(PushOrder order) {
    long start = System.nanoTime();
    CompletableFuture<Void> sent;
    try {
      sent = order.target().push(order.view());
    } catch (RuntimeException e) {
      sent = CompletableFuture.failedFuture(e);
    }
    sent.orTimeout(config.ackTimeout().toMillis(), TimeUnit.MILLISECONDS)
        .whenComplete((ok, error) -> run(() -> completed(order, error, System.nanoTime() - start)));
  }

  private void completed(PushOrder order, Throwable error, long nanos) {
    boolean dropped = false;
    synchronized (core) {
      long now = clock.millis();
      if (error == null) {
        core.acked(order, now);
      } else {
        dropped = core.failed(order, error, now);
      }
    }
    observer.completed(error == null, nanos);
    if (dropped) {
      observer.dropped();
    }
    pump();
  }

  private void timerFired() {
    timer = null;
    timerAt = Long.MAX_VALUE;
    pump();
  }

  /** Keeps one timer, at the earliest time the core has work. */
  private void arm(long next) {
    if (next == Long.MAX_VALUE || closed) {
      return;
    }
    if (timer != null && !timer.isDone() && timerAt <= next) {
      return;
    }
    if (timer != null) {
      timer.cancel(false);
    }
    timerAt = next;
    long delay = Math.max(0, next - clock.millis());
    try {
      timer = thread.schedule(this::timerFired, delay, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // Closed meanwhile.
    }
  }

  /** Tasks ever given to the push thread, queued and running ones included; for tests. */
  long tasksScheduled() {
    return thread.getTaskCount();
  }

  /** Stops pushing; pushes in flight are abandoned. */
  @Override
  public void close() {
    closed = true;
    thread.shutdownNow();
  }
}
