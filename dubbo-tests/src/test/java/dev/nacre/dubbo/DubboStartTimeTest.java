package dev.nacre.dubbo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.nacre.testkit.process.NacreClusterExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How long a Dubbo provider's {@code DubboBootstrap.start()} takes with Nacre as registry,
 * configuration centre and metadata centre (Dubbo's defaults for a {@code nacos://} address),
 * against the same provider with the registry used for naming only. The issue asks for the first
 * to be no slower than the second.
 *
 * <p>Each of dubbo.startTime.rounds rounds (3 by default, 0 skips the test) starts one provider of
 * each kind, one after the other and each in a fresh JVM, in alternating order so that neither
 * kind always pays for a cold page cache or a first registration. It prints every figure and the
 * medians ({@code DUBBO_START_MEDIANS …}) but asserts only that every start succeeded and reported
 * its time: on a loaded 2-core machine a ratio is a measurement, not a pass/fail criterion.
 */
@Timeout(900)
class DubboStartTimeTest {
  private static final int ROUNDS = Integer.getInteger("dubbo.startTime.rounds", 3);
  private static final Duration START = Duration.ofSeconds(60);
  private static final Duration STOP = Duration.ofSeconds(30);
  private static final String DEFAULTS = "defaults";
  private static final String NAMING_ONLY = "naming-only";
  static final List<DubboProcess> apps = new ArrayList<>();
  @RegisterExtension
  static final NacreClusterExtension nacre = new NacreClusterExtension(3,
      () -> apps.forEach(a -> System.out.println(a.tail())));

  /** Before the extension stops the cluster. */
  @AfterAll
  static void stopApps() {
    apps.forEach(DubboProcess::close);
  }

  @Test
  void providerStartsWithNacreAsAllThreeCentresAndWithNamingOnly() {
    assumeTrue(ROUNDS > 0, "dubbo.startTime.rounds=0");
    Map<String, List<long[]>> figures = new LinkedHashMap<>();
    figures.put(DEFAULTS, new ArrayList<>());
    figures.put(NAMING_ONLY, new ArrayList<>());
    for (int round = 1; round <= ROUNDS; round++) {
      List<String> order = round % 2 == 1 ? List.of(DEFAULTS, NAMING_ONLY) : List.of(NAMING_ONLY, DEFAULTS);
      for (String centres : order) {
        long[] started = startAndStopProvider(round, centres);
        figures.get(centres).add(started);
        System.out.printf("DUBBO_START_ROUND %d %-11s bootstrapMs=%d sinceJvmStartMs=%d%n",
            round, centres, started[0], started[1]);
      }
    }

    long defaults = median(figures.get(DEFAULTS), 0);
    long namingOnly = median(figures.get(NAMING_ONLY), 0);
    System.out.printf("DUBBO_START_MEDIANS rounds=%d defaults.bootstrapMs=%d naming-only.bootstrapMs=%d"
            + " ratio=%.2f defaults.sinceJvmStartMs=%d naming-only.sinceJvmStartMs=%d%n",
        ROUNDS, defaults, namingOnly, (double) defaults / Math.max(1, namingOnly),
        median(figures.get(DEFAULTS), 1), median(figures.get(NAMING_ONLY), 1));
    figures.forEach((centres, list) -> assertThat(list).as("%s starts", centres).hasSize(ROUNDS)
        .allSatisfy(f -> assertThat(f[0]).as("%s bootstrapMs", centres).isNotNegative()));
  }

  /** Starts a provider, waits for its STARTED line, stops it and returns [bootstrapMs, sinceJvmStartMs]. */
  private static long[] startAndStopProvider(int round, String centres) {
    DubboProcess provider = DubboProcess.start(nacre.dir(), "r" + round + "-" + centres + "-provider",
        "provider", "nacos://" + nacre.cluster().address(0), centres, "0", "0");
    apps.add(provider);
    long[][] started = new long[1][];
    await(provider + " started").atMost(START).pollInterval(Duration.ofMillis(100))
        .until(() -> provider.started().map(f -> started[0] = f).isPresent());
    // One provider at a time: the next start neither shares the CPU with this one nor sees its instance.
    provider.stop();
    assertThat(provider.exitCode(STOP)).as("%s's exit code", provider).isZero();
    return started[0];
  }

  /** The median of the figures' {@code index}th values (the mean of the middle two for an even count). */
  private static long median(List<long[]> figures, int index) {
    long[] sorted = figures.stream().mapToLong(f -> f[index]).sorted().toArray();
    int mid = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  }
}
