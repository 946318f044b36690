package dev.nacre.consensus.distro;

import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Deterministic simulation of 3 and 5 Distro cores under random writes and faults; invariants
 * after every 5 ms step; convergence after the network heals.
 *
 * <p>Replay one run with {@code -Ddistro.sim.seed=<seed> -Ddistro.sim.nodes=<n>}; run more seeds
 * with {@code -Ddistro.sim.seeds=<count>}; {@code -Ddistro.sim.trailing=true} turns the leading-edge
 * flush off.
 */
class DistroSimulationTest {
  static final long FAULT_MILLIS = 40_000;
  /** One verify round, plus a request timeout and the longest backoff, plus slack for a pull. */
  static final long SETTLE_MILLIS = SimCluster.CONFIG.verifyInterval().toMillis()
      + SimCluster.CONFIG.requestTimeout().toMillis()
      + SimCluster.CONFIG.retryBackoffMax().toMillis() + 300;

  static Stream<Arguments> runs() {
    String seed = System.getProperty("distro.sim.seed");
    if (seed != null) {
      return Stream.of(Arguments.of(Integer.getInteger("distro.sim.nodes", 3), Long.parseLong(seed)));
    }
    int seeds = Integer.getInteger("distro.sim.seeds", 6);
    return Stream.of(3, 5).flatMap(n ->
        LongStream.range(0, seeds).mapToObj(i -> Arguments.of(n, 1000L * n + i)));
  }

  @ParameterizedTest(name = "{0} nodes, seed {1}")
  @MethodSource("runs")
  @Timeout(20)
  void convergesAfterFaultsHeal(int nodes, long seed) {
    System.out.println("distro simulation: nodes=" + nodes + " seed=" + seed
        + " (replay with -Ddistro.sim.seed=" + seed + " -Ddistro.sim.nodes=" + nodes + ")");
    SimCluster cluster = new SimCluster(nodes, seed);
    while (cluster.now < FAULT_MILLIS) {
      cluster.step(true, true);
    }
    cluster.heal();
    long healedAt = cluster.now;
    while (cluster.now < healedAt + SETTLE_MILLIS) {
      cluster.step(false, false);
    }
    cluster.assertConverged();
    System.out.println("distro simulation: nodes=" + nodes + " seed=" + seed + " converged "
        + cluster.stats() + " one fault per " + cluster.stepsPerFault * SimCluster.STEP_MILLIS
        + " ms");
  }
}
