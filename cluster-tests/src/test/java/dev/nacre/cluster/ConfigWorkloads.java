package dev.nacre.cluster;

import dev.nacre.cluster.check.InstanceKey;
import java.time.Duration;
import java.util.List;

/**
 * Configuration workloads for {@link Workload}: each step first reads a random key plainly from
 * its member (for the monotonic-reads check), then makes one recorded call. Values are the
 * workload's {@code p<process>-<n>}: each writer publishes increasing versions.
 */
final class ConfigWorkloads {
  private ConfigWorkloads() {}

  /**
   * Publishes of a random key, and with probability {@code reads} a linearizable read instead;
   * with probability {@code removes} (of the writes) a remove.
   */
  static Workload.Step mix(ConfigWorkloadClient c, double reads, double removes) {
    return ctx -> {
      c.plainRead(ctx.node(), ctx.anyKey());
      InstanceKey key = ctx.anyKey();
      if (ctx.random().nextDouble() < reads) {
        return c.read(ctx.process(), ctx.node(), key);
      }
      if (ctx.random().nextDouble() < removes) {
        return c.remove(ctx.process(), ctx.node(), key);
      }
      return c.publish(ctx.process(), ctx.node(), key, ctx.nextValue());
    };
  }

  /** {@code processes} clients spread over {@code nodes}, 30% linearizable reads, publishes and {@code removes}. */
  static Workload.Spec spec(ConfigWorkloadClient c, String name, int processes, List<Integer> nodes,
      List<InstanceKey> keys, double removes) {
    return Workload.Spec.cp(name, processes, nodes, keys).withStep(mix(c, 0.3, removes))
        .withPace(Duration.ofMillis(20));
  }
}
