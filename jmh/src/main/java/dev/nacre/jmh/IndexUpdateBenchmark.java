package dev.nacre.jmh;

import dev.nacre.naming.model.Instance;
import dev.nacre.naming.registry.RegistryIndex;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One ephemeral write into the registry index ({@link RegistryIndex#putEphemeral}) of a service
 * that already holds many instances. Every registration, beat-driven revival and Distro replica
 * lands here, and a service of 10,000 instances once made each write copy the whole service; the
 * index now copies only one path of an immutable tree, so a write should stay O(log n).
 *
 * <p>{@code replace} overwrites an existing instance with a changed weight (the common case);
 * {@code addThenRemove} registers a new address and removes it again, so the service keeps its
 * size (two writes per call).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class IndexUpdateBenchmark {
  @Param({"10000"})
  public int instances;

  private RegistryIndex index;
  // Each instance with two weights, so that every put changes what the index holds.
  private Instance[] light;
  private Instance[] heavy;
  private Instance newcomer;
  private long writes;

  @Setup
  public void setUp() {
    index = new RegistryIndex();
    light = new Instance[instances];
    heavy = new Instance[instances];
    for (int n = 0; n < instances; n++) {
      light[n] = Fixtures.instance(n, 1.0, true);
      heavy[n] = Fixtures.instance(n, 2.0, true);
      index.putEphemeral(light[n]);
    }
    newcomer = Fixtures.instance(instances, 1.0, true);
  }

  @Benchmark
  public void replace() {
    long w = writes++;
    int n = (int) ((w >> 1) % instances);
    index.putEphemeral((w & 1) == 0 ? heavy[n] : light[n]);
  }

  @Benchmark
  public void addThenRemove() {
    index.putEphemeral(newcomer);
    index.remove(newcomer.key(), true);
  }
}
