package dev.nacre.consensus.raft.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.ratis.metrics.LongCounter;
import org.apache.ratis.metrics.MetricRegistryInfo;
import org.apache.ratis.metrics.RatisMetricRegistry;
import org.apache.ratis.metrics.Timekeeper;
import org.junit.jupiter.api.Test;

class PlainRatisMetricsTest {
  private final MetricRegistryInfo info = new MetricRegistryInfo("p", "ratis", "server", "d");

  @Test
  void aRegistryIsCreatedOnceAndFoundUntilRemoved() {
    PlainRatisMetrics metrics = new PlainRatisMetrics();
    RatisMetricRegistry registry = metrics.create(info);

    assertThat(metrics.create(info)).isSameAs(registry);
    assertThat(metrics.get(info)).containsSame(registry);
    assertThat(metrics.getMetricRegistries()).containsExactly(registry);
    assertThat(metrics.remove(info)).isTrue();
    assertThat(metrics.get(info)).isEmpty();
  }

  @Test
  void countersCountAndTimersTimeWithoutKeepingSamples() {
    RatisMetricRegistry registry = new PlainRatisMetrics().create(info);
    LongCounter counter = registry.counter("appends");
    counter.inc();
    counter.inc(5);
    counter.dec(2);
    assertThat(registry.counter("appends").getCount()).isEqualTo(4);

    Timekeeper.Context timing = registry.timer("append-latency").time();
    long before = System.nanoTime();
    while (System.nanoTime() - before < 1_000_000) {
      Thread.onSpinWait(); // a millisecond passes, measured by the clock the timer reads
    }
    assertThat(timing.stop()).isGreaterThanOrEqualTo(1_000_000);
    assertThat(registry.remove("appends")).isTrue();
    assertThat(registry.counter("appends").getCount()).isZero();
  }
}
