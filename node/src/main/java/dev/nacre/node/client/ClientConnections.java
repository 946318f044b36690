package dev.nacre.node.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nacre.node.config.ClientSettings;
import dev.nacre.node.config.MemberAddress;
import dev.nacre.node.ports.OpenConnections;
import dev.nacre.proto.nacos.Payload;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.ratis.thirdparty.io.grpc.Status;
import org.apache.ratis.thirdparty.io.grpc.stub.StreamObserver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Nacos client connections of this node, by connection id, and their life cycle: a transport
 * opens (NEW), the client sets it up on its stream (REGISTERED), and it ends when the transport or
 * the stream closes, or when the client stays silent past the idle bound and does not answer a
 * {@code ClientDetectionRequest} (CLOSED). Every registered connection that closes is reported to
 * the close listeners (which remove its instances and subscriptions), once.
 *
 * <p>Thread-safe.
 */
public final class ClientConnections {
  private static final Logger log = LoggerFactory.getLogger(ClientConnections.class);
  /**
   * How long a moved client's instances outlive its connection here. The official client
   * reconnects and registers again within a second or two; one that never does loses them then.
   */
  private static final Duration MOVE_GRACE = Duration.ofSeconds(10);

  private final String nodeName;
  private final Clock clock;
  private final ClientSettings settings;
  /** Open transports per remote IP, refused ones included (they hold a socket too). */
  private final OpenConnections<String> perIp = new OpenConnections<>();
  private final ScheduledExecutorService timer;
  private final PayloadCodec codec;
  private final ConcurrentHashMap<String, ClientConnection> connections = new ConcurrentHashMap<>();
  private final List<Consumer<String>> closeListeners = new CopyOnWriteArrayList<>();
  private volatile boolean shuttingDown;
  /** Connections asked to move to another member: their instances outlive them briefly. */
  private final Set<String> moving = ConcurrentHashMap.newKeySet();

  ClientConnections(String nodeName, Clock clock, ClientSettings settings,
      ScheduledExecutorService timer, PayloadCodec codec) {
    this.nodeName = nodeName;
    this.clock = clock;
    this.settings = settings;
    this.timer = timer;
    this.codec = codec;
  }

  /** Called with the id of every registered connection that closes (not during shutdown). */
  public void onClose(Consumer<String> listener) {
    closeListeners.add(listener);
  }

  ClientSettings settings() {
    return settings;
  }

  public ScheduledExecutorService timer() {
    return timer;
  }

  long nowMillis() {
    return clock.millis();
  }

  /** A TCP transport became ready: a new, not yet registered connection. */
  String opened(String remoteIp, int remotePort) {
    long now = clock.millis();
    String id = now + "_" + remoteIp + "_" + remotePort;
    ClientConnection c = new ClientConnection(id, remoteIp, remotePort, now, codec, settings.writesPerSecond());
    int fromIp = perIp.opened(remoteIp);
    if (settings.maxConnectionsPerIp() > 0 && fromIp > settings.maxConnectionsPerIp()) {
      c.refuse("Over threshold: " + remoteIp + " holds " + (fromIp - 1) + " client connections to server "
          + nodeName + ", the most nacre.client.max-connections-per-ip allows; close idle clients or raise"
          + " the limit.");
      log.warn("[{}] refusing client connection {}: {} connections from {} (nacre.client.max-connections-per-ip)",
          nodeName, id, fromIp, remoteIp);
    }
    connections.put(id, c);
    log.debug("[{}] client transport {} open", nodeName, id);
    return id;
  }

  Optional<ClientConnection> get(String id) {
    return id == null ? Optional.empty() : Optional.ofNullable(connections.get(id));
  }

  /** The client set the connection up; false when it is unknown or already closed. */
  boolean register(String id, StreamObserver<Payload> stream, String clientVersion) {
    ClientConnection c = connections.get(id);
    if (c == null || !c.register(stream, clientVersion)) {
      return false;
    }
    c.touch(clock.millis());
    log.info("[{}] client connection {} registered ({})", nodeName, id, clientVersion);
    return true;
  }

  /** The transport is gone: the connection ends for good. */
  void transportClosed(String id) {
    ClientConnection c = connections.remove(id);
    if (c != null) {
      perIp.closed(c.remoteIp());
      close(c, Status.UNAVAILABLE, "transport closed");
    }
  }

  /**
   * Ends a connection (the transport may stay: later requests on it get "unregistered", and the
   * client reconnects). Its instances and subscriptions go, unless the node is shutting down.
   */
  void close(ClientConnection c, Status status, String why) {
    if (!c.close(status.withDescription(why))) {
      return;
    }
    if (shuttingDown) {
      // The clients move to other members and register again there; peers keep this member's
      // instances for the owner grace period meanwhile, so consumers see no gap.
      return;
    }
    if (moving.remove(c.id())) {
      // Asked to move: the client registers its instances again on its new member, whose records
      // replace these everywhere. Removing them only later (and only what is still this
      // connection's) keeps consumers from seeing them vanish in between.
      log.info("[{}] client connection {} moved away; its instances stay {} ms for it to register them again",
          nodeName, c.id(), MOVE_GRACE.toMillis());
      timer.schedule(() -> cleanUp(c), MOVE_GRACE.toMillis(), TimeUnit.MILLISECONDS);
      return;
    }
    log.info("[{}] client connection {} closed: {}", nodeName, c.id(), why);
    cleanUp(c);
  }

  /**
   * A write for {@code c} (a registration, a subscription) finished after the connection may
   * have closed: the close listeners may have run before it, so run them again (they are
   * idempotent) rather than leave an instance that nothing would ever remove.
   */
  public void afterWrite(ClientConnection c) {
    if (c.state() == ClientConnection.State.CLOSED && !shuttingDown) {
      cleanUp(c);
    }
  }

  private void cleanUp(ClientConnection c) {
    for (Consumer<String> l : closeListeners) {
      try {
        l.accept(c.id());
      } catch (RuntimeException e) {
        log.warn("[{}] cleaning up after client connection {} failed", nodeName, c.id(), e);
      }
    }
  }

  /** Registered connections not already asked to move: those a rebalancing round may move. */
  public List<String> settledIds() {
    List<String> out = registeredIds();
    out.removeIf(moving::contains);
    return out;
  }

  /** Registered connections, for operators and tests. */
  public List<String> registeredIds() {
    List<String> out = new ArrayList<>();
    connections.values().forEach(c -> {
      if (c.registered()) {
        out.add(c.id());
      }
    });
    out.sort(String::compareTo);
    return out;
  }

  /** A registered connection's description; empty when no registered connection has this id. */
  public Optional<ConnectedClient> describe(String id) {
    return get(id).filter(ClientConnection::registered).map(c -> new ConnectedClient(c.id(), c.remoteIp(),
        c.remotePort(), c.clientVersion(), c.lastActiveMillis()));
  }

  /**
   * Asks a registered client to move to {@code member} ({@code host:port}, its main port), to
   * spread clients over the members; its instances stay until it has registered them there.
   */
  public CompletableFuture<Void> move(String id, String member) {
    moving.add(id);
    log.info("[{}] asking client connection {} to move to {}", nodeName, id, member);
    return reset(id, Optional.of(member)).whenComplete((ok, error) -> {
      if (error != null) {
        moving.remove(id);
      }
    });
  }

  /**
   * Asks a client to reconnect, to {@code host:port} (its main port) if given, else to any other
   * server of its list. Completes when the client acknowledged.
   */
  public CompletableFuture<Void> reset(String id, Optional<String> target) {
    ClientConnection c = connections.get(id);
    if (c == null || !c.registered()) {
      return CompletableFuture.failedFuture(
          new IllegalArgumentException("no registered client connection " + id));
    }
    ObjectNode body = codec.object();
    target.ifPresent(t -> {
      MemberAddress member = MemberAddress.parse(t);
      body.put("serverIp", member.host());
      body.put("serverPort", String.valueOf(member.port()));
    });
    body.put("connectionId", id);
    return c.request("ConnectResetRequest", body, settings.detectionTimeout(), timer).thenApply(r -> null);
  }

  /** One pass of the idle check: probes silent connections, closes those that stay silent. */
  void detectIdle() {
    long now = clock.millis();
    for (ClientConnection c : connections.values()) {
      if (!c.registered() || c.detecting()
          || now - c.lastActiveMillis() < settings.idleBeforeDetection().toMillis()) {
        continue;
      }
      CompletableFuture<ObjectNode> probe = new CompletableFuture<>();
      if (!c.startDetection(probe)) {
        continue;
      }
      c.request("ClientDetectionRequest", codec.object(), settings.detectionTimeout(), timer)
          .whenComplete((answer, error) -> {
            if (error == null) {
              c.touch(clock.millis());
            } else if (c.registered()) {
              close(c, Status.UNAVAILABLE, "no answer to the liveness probe after "
                  + (clock.millis() - c.lastActiveMillis()) + " ms of silence");
            }
            probe.complete(answer);
          });
    }
  }

  /** Runs {@link #detectIdle()} periodically until the returned handle is closed. */
  AutoCloseable startDetection() {
    long period = settings.detectionScanPeriod().toMillis();
    var task = timer.scheduleWithFixedDelay(() -> {
      try {
        detectIdle();
      } catch (RuntimeException e) {
        log.warn("[{}] idle connection check failed", nodeName, e);
      }
    }, period, period, TimeUnit.MILLISECONDS);
    return () -> task.cancel(false);
  }

  /**
   * The node is stopping: asks every client to move to another server, waits up to
   * {@code bound} for their acknowledgements, and from now on keeps the instances of closing
   * connections (their clients register them again elsewhere).
   */
  void shutdown(Duration bound) {
    shuttingDown = true;
    List<CompletableFuture<Void>> resets = new ArrayList<>();
    for (String id : registeredIds()) {
      resets.add(reset(id, Optional.empty()).exceptionally(e -> null));
    }
    try {
      CompletableFuture.allOf(resets.toArray(CompletableFuture[]::new))
          .get(bound.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      log.info("[{}] not every client acknowledged the move within {} ms", nodeName, bound.toMillis());
    }
    connections.values().forEach(c -> c.close(Status.UNAVAILABLE.withDescription("server stopping")));
  }
}
