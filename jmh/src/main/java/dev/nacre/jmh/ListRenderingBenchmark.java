package dev.nacre.jmh;

import dev.nacre.consensus.raft.RaftStatus;
import dev.nacre.consensus.raft.ReplicatedLog;
import dev.nacre.naming.api.NamingConfig;
import dev.nacre.naming.ephemeral.EphemeralStore;
import dev.nacre.naming.model.ServiceView;
import dev.nacre.naming.operations.RegistryOperations;
import dev.nacre.naming.registry.RegistryIndex;
import dev.nacre.node.naming.http.ServiceListJson;
import java.time.Clock;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
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
 * The answer to {@code GET /nacos/v1/ns/instance/list} for one service: selection and checksum
 * ({@link RegistryOperations#listInstances}) and the HTTP JSON body ({@link ServiceListJson#answer}).
 * Every client polls or is pushed this list, so it is the most frequent read. Both are kept per
 * service snapshot, so three cases are measured: a repeated read ({@code cached}), the first read
 * after a change (which also pays the one-instance index update that made the new snapshot), and
 * the JSON encoding of an already selected list on its own ({@code renderOnly}).
 *
 * <p>The gRPC answer ({@code node.client.ServiceInfoJson}) is package-private and reachable only
 * through a running gRPC server, so it is not measured here.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ListRenderingBenchmark {
  @Param({"100", "1000"})
  public int instances;

  private RegistryIndex index;
  private RegistryOperations naming;
  private final ServiceListJson serviceList = new ServiceListJson();
  private ServiceView selected;
  private boolean firstHealthy = true;

  @Setup
  public void setUp() {
    index = new RegistryIndex();
    Clock clock = Clock.systemUTC();
    EphemeralStore store = new EphemeralStore("node-1", clock, index);
    naming = new RegistryOperations(NamingConfig.defaults(), clock, new NoConsensus(), index, store);
    for (int n = 0; n < instances; n++) {
      index.putEphemeral(Fixtures.instance(n, 1.0, true));
    }
    selected = list();
  }

  @Benchmark
  public byte[] cached() {
    return serviceList.answer(list(), "").body();
  }

  @Benchmark
  public byte[] afterChange() {
    firstHealthy = !firstHealthy;
    index.setHealth(selected.hosts().get(0).key(), true, firstHealthy);
    return serviceList.answer(list(), "").body();
  }

  @Benchmark
  public byte[] renderOnly() {
    // A view of its own has an empty render cache: the hosts are encoded again.
    ServiceView fresh = new ServiceView(selected.service(), selected.clusters(), selected.hosts(),
        selected.reachProtectionThreshold(), selected.lastRefTime(), selected.checksum());
    return serviceList.answer(fresh, "").body();
  }

  private ServiceView list() {
    return naming.listInstances(Fixtures.SERVICE, Set.of(), false, false);
  }

  /** Plain list reads never reach consensus; only linearizable ones would ask for a barrier. */
  private static final class NoConsensus implements ReplicatedLog {
    @Override
    public CompletableFuture<byte[]> submit(byte[] operation) {
      throw new UnsupportedOperationException("the list benchmark writes through the index only");
    }

    @Override
    public CompletableFuture<Void> readBarrier() {
      return CompletableFuture.completedFuture(null);
    }

    @Override
    public RaftStatus status() {
      throw new UnsupportedOperationException("not a cluster");
    }

    @Override
    public void close() {}
  }
}
