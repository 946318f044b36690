package dev.nacre.consensus.raft.internal;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.ratis.metrics.LongCounter;
import org.apache.ratis.metrics.MetricRegistries;
import org.apache.ratis.metrics.MetricRegistryInfo;
import org.apache.ratis.metrics.RatisMetricRegistry;
import org.apache.ratis.metrics.Timekeeper;
import org.apache.ratis.util.TimeDuration;

/**
 * Ratis' metric registries as Nacre runs them: counters count and timers time, but nothing keeps
 * a history, reports or publishes. Nacre's {@code /metrics} has Raft figures of its own, and no
 * Ratis logic reads its metrics. Ratis' own implementation (Dropwizard) fed every timer into a
 * sampling reservoir (a skip list insert per call): 3-5% of each member's JFR samples under
 * persistent writes, spent on figures nothing read. Found by Ratis through {@link java.util.ServiceLoader}.
 */
public final class PlainRatisMetrics extends MetricRegistries {
  private final Map<MetricRegistryInfo, RatisMetricRegistry> registries = new ConcurrentHashMap<>();

  @Override
  public void clear() {
    registries.clear();
  }

  @Override
  public RatisMetricRegistry create(MetricRegistryInfo info) {
    return registries.computeIfAbsent(info, Registry::new);
  }

  @Override
  public boolean remove(MetricRegistryInfo info) {
    return registries.remove(info) != null;
  }

  @Override
  public Optional<RatisMetricRegistry> get(MetricRegistryInfo info) {
    return Optional.ofNullable(registries.get(info));
  }

  @Override
  public Set<MetricRegistryInfo> getMetricRegistryInfos() {
    return Set.copyOf(registries.keySet());
  }

  @Override
  public Collection<RatisMetricRegistry> getMetricRegistries() {
    return List.copyOf(registries.values());
  }

  /** Reporters are what this implementation leaves out: none is ever called. */
  @Override
  public void addReporterRegistration(Consumer<RatisMetricRegistry> onAdd, Consumer<RatisMetricRegistry> onRemove) {
  }

  @Override
  public void enableJmxReporter() {
  }

  @Override
  public void enableConsoleReporter(TimeDuration consoleReportRate) {
  }

  private static final class Registry implements RatisMetricRegistry {
    /** Timers keep nothing between timings, so one serves every name. */
    private static final Timekeeper TIMER = Started::new;

    private final MetricRegistryInfo info;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    Registry(MetricRegistryInfo info) {
      this.info = info;
    }

    @Override
    public Timekeeper timer(String name) {
      return TIMER;
    }

    @Override
    public LongCounter counter(String name) {
      return counters.computeIfAbsent(name, n -> new Counter());
    }

    @Override
    public boolean remove(String name) {
      return counters.remove(name) != null;
    }

    /** A gauge is a value computed when read; nothing reads Ratis' gauges, so none is kept. */
    @Override
    public <T> void gauge(String name, Supplier<Supplier<T>> gaugeSupplier) {
    }

    @Override
    public MetricRegistryInfo getMetricRegistryInfo() {
      return info;
    }
  }

  /** A timing in progress: its stop says how long it took, as Ratis' timers do. */
  private static final class Started implements Timekeeper.Context {
    private final long startNanos = System.nanoTime();

    @Override
    public long stop() {
      return System.nanoTime() - startNanos;
    }
  }

  private static final class Counter implements LongCounter {
    private final LongAdder count = new LongAdder();

    @Override
    public void inc(long n) {
      count.add(n);
    }

    @Override
    public void dec(long n) {
      count.add(-n);
    }

    @Override
    public long getCount() {
      return count.sum();
    }
  }
}
