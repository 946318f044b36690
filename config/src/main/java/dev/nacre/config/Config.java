package dev.nacre.config;

import dev.nacre.config.api.ConfigListeners;
import dev.nacre.config.api.ConfigOperations;
import dev.nacre.config.api.ConfigWriteObserver;
import dev.nacre.config.listen.ListenerRegistry;
import dev.nacre.config.operations.HistoryPurger;
import dev.nacre.config.operations.LogConfigOperations;
import dev.nacre.config.state.ConfigDomain;
import dev.nacre.consensus.raft.ReplicatedLog;
import dev.nacre.consensus.state.DomainLog;
import dev.nacre.consensus.state.StateDomain;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The configuration service of one node, built in the order its parts need each other: {@link
 * #open} makes its part of the replicated state ({@link #domain}, kind {@code 'C'}, column families
 * {@code config-*}, which the node's state machine loads before its Raft member starts) and the
 * listeners; {@link #attach} adds the operations on the shared replicated log; {@link
 * #startChecks} starts the history retention. No static state: several nodes share a JVM.
 */
public final class Config implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Config.class);
  static final Duration PURGE_PERIOD = Duration.ofHours(1);

  private final String nodeId;
  private final ConfigSettings settings;
  private final Clock clock;
  private final ListenerRegistry listeners;
  private final ConfigDomain domain;
  private volatile LogConfigOperations operations;

  private Config(String nodeId, ConfigSettings settings, Clock clock) {
    this.nodeId = nodeId;
    this.settings = settings;
    this.clock = clock;
    this.listeners = new ListenerRegistry(settings.maxListenersPerClient(), settings.maxListeners());
    this.domain = new ConfigDomain(listeners::changed);
  }

  public static Config open(String nodeId, ConfigSettings settings, Clock clock) {
    log.info("[{}] Config service: {}", nodeId, settings);
    return new Config(Objects.requireNonNull(nodeId, "nodeId"), Objects.requireNonNull(settings, "settings"),
        Objects.requireNonNull(clock, "clock"));
  }

  /** Config's part of the replicated state: its operations, column families and loading. */
  public StateDomain domain() {
    return domain;
  }

  /** Builds the operations on the node's replicated log, config's operations marked as its domain's. */
  public void attach(ReplicatedLog sharedLog) {
    if (operations != null) {
      throw new IllegalStateException("config of " + nodeId + " is attached already");
    }
    operations = new LogConfigOperations(settings, clock,
        new DomainLog(domain, Objects.requireNonNull(sharedLog, "sharedLog")), domain);
  }

  /** What the client ports call. */
  public ConfigOperations operations() {
    return requireAttached();
  }

  public ConfigListeners listeners() {
    return listeners;
  }

  /** Tells {@code observer} of every publish and delete of this member's operations (the meters). */
  public void observeWrites(ConfigWriteObserver observer) {
    requireAttached().observe(observer);
  }

  /** Formal configurations on this member, for the meters. */
  public int configurations() {
    return requireAttached().count();
  }

  /**
   * Starts the periodic purge of revisions older than the history retention, submitted through
   * the log (idempotent: any member may submit it); closing the handle stops it.
   */
  public AutoCloseable startChecks(ScheduledExecutorService scheduler) {
    return new HistoryPurger(nodeId, requireAttached(), settings.historyRetention(), clock)
        .start(scheduler, PURGE_PERIOD);
  }

  private LogConfigOperations requireAttached() {
    LogConfigOperations current = operations;
    if (current == null) {
      throw new IllegalStateException("config of " + nodeId + " is not attached to a replicated log yet");
    }
    return current;
  }

  @Override
  public void close() {
    // Nothing runs on its own: the checks stop through their handle, the log belongs to the node.
  }
}
