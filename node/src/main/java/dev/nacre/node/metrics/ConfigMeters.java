package dev.nacre.node.metrics;

import dev.nacre.config.api.ConfigWriteObserver;
import dev.nacre.node.configs.grpc.ConfigPushObserver;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * The configuration service's meters: configurations and listened keys held here, publishes and
 * deletes by result with their time to commit, and change notifications by outcome with their
 * time from the change reaching this member to the client's acknowledgement.
 */
public final class ConfigMeters {
  private final MeterRegistry registry;
  private final Map<String, Timer> timers = new ConcurrentHashMap<>();

  private ConfigMeters(MeterRegistry registry) {
    this.registry = registry;
  }

  /** Registers the gauges on {@code metrics}' registry, read when scraped. */
  public static ConfigMeters watch(NodeMetrics metrics, IntSupplier configurations, IntSupplier listeners) {
    MeterRegistry registry = metrics.registry();
    // Strongly held: a gauge's supplier is otherwise weakly referenced, and these lambdas have no other home.
    Gauge.builder("nacre.config.configurations", configurations, IntSupplier::getAsInt).strongReference(true)
        .description("formal configurations in this member's copy of the Raft state").register(registry);
    Gauge.builder("nacre.config.listeners", listeners, IntSupplier::getAsInt).strongReference(true)
        .description("configuration keys listened to on this member, summed over its clients").register(registry);
    return new ConfigMeters(registry);
  }

  /** Publishes and deletes of this member's ports by result, from the call to its commit or refusal. */
  public ConfigWriteObserver writes() {
    return (operation, result, nanos) -> timer("nacre.config.writes",
        "configuration publishes and deletes, from the call to the commit or refusal",
        "operation", operation.name().toLowerCase(Locale.ROOT), "result", result)
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  /** Change notifications to gRPC clients by outcome (unchanged: nothing had to be sent). */
  public ConfigPushObserver notifications() {
    return (outcome, nanos) -> timer("nacre.config.notifications",
        "configuration change notifications, from the change reaching this member to the outcome",
        "result", outcome.name().toLowerCase(Locale.ROOT))
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  /** Looked up per event, built once per tag set. */
  private Timer timer(String name, String description, String... tags) {
    return timers.computeIfAbsent(name + String.join("/", tags),
        k -> NodeMetrics.timer(name).description(description).tags(tags).register(registry));
  }
}
