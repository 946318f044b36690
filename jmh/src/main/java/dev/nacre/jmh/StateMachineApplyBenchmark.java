package dev.nacre.jmh;

import dev.nacre.naming.model.Records;
import dev.nacre.naming.persistent.NamingStateMachine;
import dev.nacre.naming.registry.RegistryIndex;
import dev.nacre.proto.naming.NamingOperation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One Raft log entry applied by the naming state machine ({@link NamingStateMachine#apply}) on a
 * real RocksDB: parse each register operation of a persistent instance, update the registry
 * index, and commit the entry's mutations with its log index in one RocksDB write. Every
 * persistent write and every log replay after a restart goes through here, on the single apply
 * thread, so its cost bounds the CP write rate. Entries of 1 and of 64 operations show what
 * batching several writes into one entry saves.
 *
 * <p>The operations cycle over a fixed set of instances with alternating weights, so RocksDB and
 * the index keep a constant size and every operation is a real change.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class StateMachineApplyBenchmark {
  private static final int DISTINCT_INSTANCES = 1024;

  @Param({"1", "64"})
  public int operationsPerEntry;

  private Path dir;
  private NamingStateMachine stateMachine;
  private List<byte[]> operations;
  private long logIndex;
  private int next;

  @Setup
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("nacre-jmh-rocksdb");
    stateMachine = NamingStateMachine.open(dir, new RegistryIndex());
    logIndex = stateMachine.lastAppliedIndex();
    operations = new ArrayList<>(2 * DISTINCT_INSTANCES);
    for (double weight : new double[] {1.0, 2.0}) {
      for (int n = 0; n < DISTINCT_INSTANCES; n++) {
        operations.add(NamingOperation.newBuilder()
            .setPutInstance(Records.toRecord(Fixtures.instance(n, weight, false)))
            .build()
            .toByteArray());
      }
    }
  }

  @TearDown
  public void tearDown() throws IOException {
    stateMachine.close();
    TempFolders.deleteTree(dir);
  }

  @Benchmark
  public Object applyEntry() {
    List<byte[]> entry = new ArrayList<>(operationsPerEntry);
    for (int i = 0; i < operationsPerEntry; i++) {
      entry.add(operations.get(next));
      next = (next + 1) % operations.size();
    }
    return stateMachine.apply(++logIndex, entry);
  }
}
