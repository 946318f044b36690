package dev.nacre.naming.health;

import dev.nacre.consensus.async.PeriodicTask;
import dev.nacre.naming.api.NamingConfig;
import dev.nacre.naming.model.ClusterInfo;
import dev.nacre.naming.model.HealthCheckType;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.registry.RegistryIndex;
import dev.nacre.naming.registry.ServiceSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Probes persistent instances from the server, as Nacos does: each round checks every persistent
 * instance of the services this node is responsible for, by TCP connect or HTTP GET as its
 * cluster says ({@link HealthCheckType#NONE}: not probed), and hands the result to a
 * {@link ProbeResultSink}, which sets its soft health in the index (and in a cluster replicates
 * it). Probes never delete an instance.
 *
 * <p>Probes run on a bounded pool; an instance whose previous probe is still running is skipped,
 * and a round that finds the pool full skips the rest rather than queue without bound.
 */
public final class PersistentHealthProber implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PersistentHealthProber.class);
  private static final int QUEUE_CAPACITY = 4096;

  private final RegistryIndex index;
  private final NamingConfig config;
  private final Predicate<ServiceKey> isResponsible;
  private final HealthProbe tcp;
  private final HealthProbe http;
  private final ProbeResultSink results;
  private final ExecutorService pool;
  private final Set<InstanceKey> inFlight = ConcurrentHashMap.newKeySet();
  /** Where the next round starts in its list of due instances: after the last round's last probe. */
  private volatile int resumeAt;
  private long lastQueueFullWarning = System.nanoTime() - TimeUnit.MINUTES.toNanos(2);

  /**
   * A standalone prober with its own pool of {@code config.probeThreads()} threads and real
   * probes: results go to the local index only.
   */
  public PersistentHealthProber(
      RegistryIndex index, NamingConfig config, Predicate<ServiceKey> isResponsible) {
    this(index, config, isResponsible, ProbeResultSink.localOnly(index));
  }

  /**
   * As above, with results going to {@code results}: in a cluster, the replication's
   * {@code persistentHealth()}, so that every member learns what this one probed.
   */
  public PersistentHealthProber(RegistryIndex index, NamingConfig config,
      Predicate<ServiceKey> isResponsible, ProbeResultSink results) {
    this(index, config, isResponsible, results, new TcpProbe(config.probeTimeout()),
        new HttpProbe(config.probeTimeout()));
  }

  /** With the probes given (tests). Results go to the local index only. */
  public PersistentHealthProber(
      RegistryIndex index,
      NamingConfig config,
      Predicate<ServiceKey> isResponsible,
      HealthProbe tcp,
      HealthProbe http) {
    this(index, config, isResponsible, ProbeResultSink.localOnly(index), tcp, http);
  }

  public PersistentHealthProber(
      RegistryIndex index,
      NamingConfig config,
      Predicate<ServiceKey> isResponsible,
      ProbeResultSink results,
      HealthProbe tcp,
      HealthProbe http) {
    this(index, config, isResponsible, results, tcp, http, QUEUE_CAPACITY);
  }

  /** With a probe queue of {@code queueCapacity} (tests of a full queue). */
  PersistentHealthProber(
      RegistryIndex index,
      NamingConfig config,
      Predicate<ServiceKey> isResponsible,
      ProbeResultSink results,
      HealthProbe tcp,
      HealthProbe http,
      int queueCapacity) {
    this.index = index;
    this.config = config;
    this.isResponsible = isResponsible;
    this.results = Objects.requireNonNull(results, "results");
    this.tcp = tcp;
    this.http = http;
    this.pool =
        new ThreadPoolExecutor(
            config.probeThreads(), config.probeThreads(), 30, TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(queueCapacity), daemonThreads());
  }

  /** Runs the probes every probe period on {@code scheduler} until the returned task is closed. */
  public PeriodicTask start(ScheduledExecutorService scheduler) {
    return PeriodicTask.start(scheduler, config.probePeriod(), "persistent-probe", this::probeOnce);
  }

  /**
   * Starts one round; the future completes when every probe of the round has updated health. When
   * the probe queue fills up, the rest of the instances wait for the next round, which starts with
   * them: with more instances than the queue holds, every one is still probed in turn.
   */
  public CompletableFuture<Void> probeOnce() {
    List<Candidate> due = new ArrayList<>();
    for (ServiceSnapshot service : index.allServices()) {
      if (!isResponsible.test(service.key())) {
        continue;
      }
      for (Instance instance : service.persistentInstances()) {
        ClusterInfo cluster = service.cluster(instance.key().cluster());
        if (cluster.checkType() != HealthCheckType.NONE) {
          due.add(new Candidate(instance, cluster));
        }
      }
    }
    List<CompletableFuture<Void>> probes = new ArrayList<>();
    int first = due.isEmpty() ? 0 : resumeAt % due.size();
    resumeAt = 0;
    for (int n = 0; n < due.size(); n++) {
      int at = (first + n) % due.size();
      Candidate c = due.get(at);
      if (!inFlight.add(c.instance().key())) {
        continue;
      }
      try {
        probes.add(CompletableFuture.runAsync(() -> probe(c.instance(), c.cluster()), pool));
      } catch (RejectedExecutionException e) {
        inFlight.remove(c.instance().key());
        resumeAt = at;
        // Every round at this size: say it once a minute, not every probe period.
        long now = System.nanoTime();
        if (now - lastQueueFullWarning > TimeUnit.MINUTES.toNanos(1)) {
          lastQueueFullWarning = now;
          log.warn("Probe queue is full ({} probes started this round); {} of {} instances wait for the next"
              + " round, so each is probed less often than every probe period", probes.size(), due.size() - n,
              due.size());
        }
        break;
      }
    }
    return CompletableFuture.allOf(probes.toArray(CompletableFuture[]::new));
  }

  private record Candidate(Instance instance, ClusterInfo cluster) {}

  private void probe(Instance instance, ClusterInfo cluster) {
    InstanceKey key = instance.key();
    try {
      HealthProbe probe = cluster.checkType() == HealthCheckType.HTTP ? http : tcp;
      int port = cluster.probePort(key.port());
      boolean healthy = probe.isHealthy(key.ip(), port, cluster);
      if (results.probed(key, healthy)) {
        log.info(
            "Persistent instance {} is now {} ({} probe of port {})",
            key.instanceId(), healthy ? "healthy" : "unhealthy", cluster.checkType(), port);
      }
    } finally {
      inFlight.remove(key);
    }
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }

  private static ThreadFactory daemonThreads() {
    AtomicInteger count = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "naming-probe-" + count.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
