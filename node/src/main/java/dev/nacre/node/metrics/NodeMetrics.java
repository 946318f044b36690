package dev.nacre.node.metrics;

import com.google.common.base.Suppliers;
import dev.nacre.consensus.distro.DistroReplicator;
import dev.nacre.consensus.distro.DistroStatus;
import dev.nacre.consensus.raft.RaftAdmin;
import dev.nacre.consensus.raft.RaftStatus;
import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.model.RegistryCounts;
import dev.nacre.naming.push.PushObserver;
import dev.nacre.node.client.ClientRequestObserver;
import dev.nacre.node.cluster.peer.PeerCallObserver;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.Router;
import dev.nacre.node.status.NodeCounts;
import dev.nacre.storage.RocksStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * A node's meters (Micrometer), served as Prometheus text at {@code GET /metrics} and Nacos'
 * {@code GET /nacos/actuator/prometheus}. Every number is read from its one home when scraped
 * (the registry index, the Raft member, the push and client tables) or recorded as it happens
 * (HTTP requests); none is kept twice.
 */
public final class NodeMetrics implements AutoCloseable {
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
  /** Label values a client cannot multiply: any other method counts as "other". */
  private static final Set<String> METHODS =
      Set.of("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS");

  /**
   * Latency buckets of every timer (Prometheus {@code _bucket} lines): a dozen fixed bounds from
   * 1 ms to 5 s cost a few increments per request, where a percentile histogram would keep 70.
   */
  private static final Duration[] LATENCY_BUCKETS = Stream.of(1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000)
      .map(Duration::ofMillis).toArray(Duration[]::new);
  /** Roles a Raft member reports; each is a row of {@code nacre_raft_role}, 1 for the current one. */
  private static final List<String> RAFT_ROLES = List.of("STARTING", "FOLLOWER", "CANDIDATE", "LEADER", "LISTENER", "UNKNOWN");

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  /** Set once the JVM gauges are bound ({@link #watchJvm}); closed with this. */
  private volatile JvmGcMetrics gc;
  /** Meters whose rows (one per namespace, say) are set from their home right before a scrape. */
  private final List<Runnable> beforeScrape = new CopyOnWriteArrayList<>();

  public NodeMetrics(String node) {
    registry.config().commonTags("node", node);
  }

  /**
   * Gauges of the JVM (memory, GC, threads, classes, CPU, uptime). Bound once the node serves: binding
   * them took a restart's main thread a twentieth of a second before the node was ready.
   */
  public void watchJvm() {
    new JvmMemoryMetrics().bindTo(registry);
    gc = new JvmGcMetrics();
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
  }

  /** Gauges of what this node holds and serves. */
  public void watchRegistry(NamingOperations naming, NodeCounts node) {
    gauge("nacre.instances", "ephemeral instances held on this node (owned and replicas)",
        () -> naming.counts().ephemeralInstances(), "kind", "ephemeral");
    gauge("nacre.instances", "persistent instances in this node's copy of the Raft state",
        () -> naming.counts().persistentInstances(), "kind", "persistent");
    gauge("nacre.services", "services", () -> naming.counts().services());
    gauge("nacre.instances.responsible", "instances this node owns or health-checks", node::responsibleInstances);
    gauge("nacre.subscriptions", "subscriptions (client and service) held on this node", node::subscriptions);
    gauge("nacre.clients", "Nacos 2.x clients connected to this node", node::clients);
    MultiGauge services = MultiGauge.builder("nacre.namespace.services")
        .description("services per namespace").register(registry);
    MultiGauge instances = MultiGauge.builder("nacre.namespace.instances")
        .description("instances per namespace and kind (ephemeral, persistent) held on this node").register(registry);
    // Rows per namespace, from one pass over the index right before each scrape.
    beforeScrape.add(() -> {
      Map<String, RegistryCounts> counts = naming.countsByNamespace();
      List<MultiGauge.Row<?>> serviceRows = new ArrayList<>();
      List<MultiGauge.Row<?>> instanceRows = new ArrayList<>();
      counts.forEach((namespace, c) -> {
        serviceRows.add(MultiGauge.Row.of(Tags.of("namespace", namespace), c.services()));
        instanceRows.add(MultiGauge.Row.of(Tags.of("namespace", namespace, "kind", "ephemeral"), c.ephemeralInstances()));
        instanceRows.add(MultiGauge.Row.of(Tags.of("namespace", namespace, "kind", "persistent"), c.persistentInstances()));
      });
      services.register(serviceRows, true);
      instances.register(instanceRows, true);
    });
  }

  /** Raft snapshot figures, read when scraped: index -1 and age -1 before the first snapshot. */
  public void watchRaftSnapshot(Supplier<Optional<RaftAdmin.SnapshotStatus>> latest) {
    gauge("nacre.raft.snapshot.index", "log index of the latest Raft snapshot held here (-1: none yet)",
        () -> latest.get().map(RaftAdmin.SnapshotStatus::index).orElse(-1L));
    gauge("nacre.raft.snapshot.age.seconds", "how long ago the latest Raft snapshot was written (-1: none yet)",
        () -> latest.get().map(s -> s.ageMillis() / 1000.0).orElse(-1.0));
  }

  /** Sizes of the RocksDB database of the persistent state, read when scraped. */
  public void watchStorage(Supplier<RocksStore.Stats> stats) {
    gauge("nacre.rocksdb.sst.bytes", "bytes in the persistent state's SST files", () -> stats.get().sstBytes());
    gauge("nacre.rocksdb.pending.compaction.bytes", "bytes compaction still has to rewrite (estimate)",
        () -> stats.get().pendingCompactionBytes());
    gauge("nacre.rocksdb.memtable.bytes", "bytes in memtables", () -> stats.get().memtableBytes());
  }

  /** Calls the peer port refused because its limit was reached; {@code owner} lives as long as the node. */
  public <T> void watchPeerPort(T owner, ToDoubleFunction<T> refusedCalls) {
    FunctionCounter.builder("nacre.peer.calls.refused", owner, refusedCalls)
        .description("peer calls refused with RESOURCE_EXHAUSTED (nacre.peer.max-concurrent-calls in flight)")
        .register(registry);
  }

  /** Leaders this member learned of since it started (elections it saw end), read when scraped. */
  public <T> void watchLeaderChanges(T raft, ToDoubleFunction<T> leaderChanges) {
    FunctionCounter.builder("nacre.raft.leader.changes", raft, leaderChanges)
        .description("leaders this member learned of since it started: one per election it saw end")
        .register(registry);
  }

  /** Gauges of this member's Raft state, read when scraped. */
  public void watchRaft(Supplier<RaftStatus> raft) {
    gauge("nacre.raft.term", "current term", () -> raft.get().term());
    gauge("nacre.raft.commit.index", "highest log index known committed", () -> raft.get().commitIndex());
    gauge("nacre.raft.applied.index", "highest log index applied to this node's state machine",
        () -> raft.get().appliedIndex());
    gauge("nacre.raft.leader", "1 while this member leads the Raft group",
        () -> "LEADER".equals(raft.get().role()) ? 1 : 0);
    for (String role : RAFT_ROLES) {
      gauge("nacre.raft.role", "1 for this member's Raft role now, 0 for the others",
          () -> role.equals(raft.get().role()) ? 1 : 0, "role", role);
    }
    MultiGauge leader = MultiGauge.builder("nacre.raft.followed.leader")
        .description("1, labelled with the Raft leader this member follows (\"\" while there is none)")
        .register(registry);
    beforeScrape.add(() -> leader.register(
        List.of(MultiGauge.Row.of(Tags.of("leader", raft.get().leaderId()), 1)), true));
    gauge("nacre.raft.apply.stalled.seconds",
        "how long the state machine has applied nothing while committed entries wait (0: keeping up)",
        () -> raft.get().applyStalledMillis() / 1000.0);
  }

  /** Held strongly: a gauge's only reference to its source would otherwise let it be collected (NaN). */
  private void gauge(String name, String description, Supplier<Number> value, String... tags) {
    Gauge.builder(name, value, v -> v.get().doubleValue()).description(description).tags(tags)
        .strongReference(true).register(registry);
  }

  /**
   * Gauges and counters of Distro replication, from the replicator's own status, taken on its
   * thread once per scrape (every meter of a scrape reads the same status).
   */
  public void watchDistro(DistroReplicator replicator, List<String> peers) {
    Supplier<DistroStatus> status = Suppliers.memoizeWithExpiration(
        () -> replicator.status().orTimeout(2, TimeUnit.SECONDS).join(), 1, TimeUnit.SECONDS)::get;
    gauge("nacre.distro.records", "Distro records held here that are not tombstones", () -> status.get().liveRecords(),
        "kind", "live");
    gauge("nacre.distro.records", "live Distro records held here whose owner is this member",
        () -> status.get().ownedRecords(), "kind", "owned");
    gauge("nacre.distro.pulls.in.progress", "verify repairs waiting for an owner's records",
        () -> status.get().pullsInProgress());
    // The replicator lives as long as the node: a counter's weak reference to it holds.
    counter(replicator, "nacre.distro.snapshot.loads", "full snapshots loaded from a peer at start",
        () -> status.get().snapshotsLoaded());
    counter(replicator, "nacre.distro.repairs",
        "verify repairs applied: an owner's records replaced after its digest differed", () -> status.get().repairs());
    counter(replicator, "nacre.distro.pulls",
        "owners' record sets asked for by verify (digest differed, or owner silent)", () -> status.get().pulls());
    Set<String> watched = ConcurrentHashMap.newKeySet();
    peers.forEach(peer -> watchDistroPeer(replicator, status, peer, watched));
    // A member added at run time gets its meters at the first scrape after its queue exists.
    beforeScrape.add(() -> {
      try {
        status.get().pendingKeysByPeer().keySet()
            .forEach(peer -> watchDistroPeer(replicator, status, peer, watched));
      } catch (RuntimeException statusUnavailable) {
        // The replicator did not answer in time: the scrape still answers, a later one adds the peer.
      }
    });
  }

  private void watchDistroPeer(DistroReplicator replicator, Supplier<DistroStatus> status, String peer,
      Set<String> watched) {
    if (!watched.add(peer)) {
      return;
    }
    gauge("nacre.distro.pending.keys", "keys waiting to be sent to the peer",
        () -> status.get().pendingKeysByPeer().getOrDefault(peer, 0), "peer", peer);
    counter(replicator, "nacre.distro.resyncs", "times the queue to the peer was dropped (peer DOWN, or over the cap)",
        () -> status.get().resyncsByPeer().getOrDefault(peer, 0L), "peer", peer);
    Supplier<DistroStatus.PeerTraffic> traffic =
        () -> status.get().trafficByPeer().getOrDefault(peer, DistroStatus.PeerTraffic.NONE);
    String batches = "batches sent to the peer, by outcome (failed: refused or timed out, then retried)";
    counter(replicator, "nacre.distro.batches", batches, () -> traffic.get().batchesAcked(),
        "peer", peer, "result", "acked");
    counter(replicator, "nacre.distro.batches", batches, () -> traffic.get().batchesFailed(),
        "peer", peer, "result", "failed");
    counter(replicator, "nacre.distro.records.sent",
        "records in batches the peer acknowledged (divided by acked batches: the batch size)",
        () -> traffic.get().recordsAcked(), "peer", peer);
  }

  /** A counter read when scraped; {@code owner} (weakly held) must live as long as the node. */
  private void counter(Object owner, String name, String description, Supplier<Number> value, String... tags) {
    FunctionCounter.builder(name, owner, o -> value.get().doubleValue()).description(description).tags(tags)
        .register(registry);
  }

  /** Pushes to subscribers by result, their time to acknowledgement, and subscribers dropped. */
  public PushObserver pushes() {
    Timer acked = timer("nacre.push").tag("result", "acked")
        .description("pushes to subscribers, from send to acknowledgement or failure").register(registry);
    Timer failed = timer("nacre.push").tag("result", "failed")
        .description("pushes to subscribers, from send to acknowledgement or failure").register(registry);
    Counter dropped = Counter.builder("nacre.push.subscribers.dropped")
        .description("subscribers dropped after acknowledging nothing for the drop-after period").register(registry);
    return new PushObserver() {
      @Override
      public void completed(boolean acknowledged, long nanos) {
        (acknowledged ? acked : failed).record(nanos, TimeUnit.NANOSECONDS);
      }

      @Override
      public void dropped() {
        dropped.increment();
      }
    };
  }

  /** Records every HTTP request by method, route (or "unmatched") and status. */
  public Router.Observer httpRequests() {
    // Looked up, not built and registered per request: as for the client port (below), that was a
    // few percent of the HTTP port's threads under writes (JFR).
    Map<String, Map<String, Map<Integer, Timer>>> timers = new ConcurrentHashMap<>();
    return (request, route, response, nanos) -> {
      String method = METHODS.contains(request.method()) ? request.method() : "other";
      timers.computeIfAbsent(method, m -> new ConcurrentHashMap<>())
          .computeIfAbsent(route, r -> new ConcurrentHashMap<>())
          .computeIfAbsent(response.status(), status -> timer("nacre.http.server.requests")
              .description("HTTP Open API requests handled")
              .tags("method", method, "route", route, "status", String.valueOf(status))
              .register(registry))
          .record(nanos, TimeUnit.NANOSECONDS);
    };
  }

  /** Records every call the peer port answers by method and gRPC status. */
  public PeerCallObserver peerCalls() {
    Map<String, Map<String, Timer>> timers = new ConcurrentHashMap<>();
    return (method, status, nanos) -> timers.computeIfAbsent(method, m -> new ConcurrentHashMap<>())
        .computeIfAbsent(status, code -> timer("nacre.peer.requests")
            .description("calls answered on the peer gRPC port (Distro, forwarded writes, pings), arrival to answer")
            .tags("method", method, "status", code)
            .register(registry))
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  /** Records every client gRPC request by type and Nacos error code (0: success). */
  public ClientRequestObserver clientRequests() {
    // One lookup per request in a small map: building and registering the meter each time (tags
    // sorted, id hashed) cost about 6% of the client port's I/O threads under registrations.
    Map<String, Map<Integer, Timer>> timers = new ConcurrentHashMap<>();
    return (type, errorCode, nanos) -> timers.computeIfAbsent(type, t -> new ConcurrentHashMap<>())
        .computeIfAbsent(errorCode, code -> timer("nacre.client.requests")
            .description("Nacos 2.x client requests answered on the client gRPC port, arrival to answer")
            .tags("type", type, "code", String.valueOf(code))
            .register(registry))
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  static Timer.Builder timer(String name) {
    return Timer.builder(name).serviceLevelObjectives(LATENCY_BUCKETS);
  }

  /** Registers the scrape endpoints on {@code router}. */
  public void register(Router router) {
    Router.Handler scrape = this::scrape;
    router.add("GET", "/metrics", scrape).add("GET", "/nacos/actuator/prometheus", scrape);
  }

  private ApiResponse scrape(ApiRequest request) {
    beforeScrape.forEach(Runnable::run);
    return new ApiResponse(200, CONTENT_TYPE, registry.scrape().getBytes(StandardCharsets.UTF_8));
  }

  public MeterRegistry registry() {
    return registry;
  }

  @Override
  public void close() {
    JvmGcMetrics bound = gc;
    if (bound != null) {
      bound.close();
    }
    registry.close();
  }
}
