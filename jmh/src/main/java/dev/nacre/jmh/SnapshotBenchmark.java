package dev.nacre.jmh;

import dev.nacre.naming.model.Records;
import dev.nacre.naming.model.ServiceKey;
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
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A Raft snapshot of the naming state holding {@code instances} persistent instances (services of
 * 100), on a real RocksDB. {@code take} runs on a snapshot thread of its own (it ran on the apply
 * thread, pausing writes, before 2026-12-06); {@code install} on the follower's apply thread.
 * {@code take} is the leader's (or any member's) periodic snapshot, a RocksDB checkpoint taken after
 * the writes of one snapshot interval ({@link #OPERATIONS_BETWEEN}, re-registrations with a changed
 * weight, applied in entries of {@link #OPERATIONS_PER_ENTRY}); {@code install} is a lagging
 * follower replacing its state with such a snapshot: link (or copy) its files, reopen, and read
 * every record into the registry index. Issue 10 asks that neither pause writes for more than 100 ms at 100,000.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class SnapshotBenchmark {
  private static final int PER_SERVICE = 100;
  private static final int OPERATIONS_PER_ENTRY = 5;
  /** About what a member applies between two snapshots at the default threshold of 10,000 entries. */
  private static final int OPERATIONS_BETWEEN = 50_000;

  @Param({"100000"})
  public int instances;

  private Path root;
  private NamingStateMachine leader;
  private NamingStateMachine follower;
  private Path written;
  private Path taken;
  private long logIndex;
  private int next;
  private double weight = 1.0;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    root = Files.createTempDirectory("nacre-jmh-snapshot");
    leader = NamingStateMachine.open(root.resolve("leader"), new RegistryIndex());
    follower = NamingStateMachine.open(root.resolve("follower"), new RegistryIndex());
    applyWrites(instances);
    written = root.resolve("written");
    Files.createDirectories(written);
    leader.writeSnapshot(written);
  }

  /** One snapshot interval of writes before each snapshot taken. */
  @Setup(Level.Invocation)
  public void writeAnInterval() throws IOException {
    applyWrites(OPERATIONS_BETWEEN);
    taken = Files.createTempDirectory(root, "taken");
  }

  @TearDown(Level.Invocation)
  public void dropTaken() throws IOException {
    TempFolders.deleteTree(taken);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    leader.close();
    follower.close();
    TempFolders.deleteTree(root);
  }

  @Benchmark
  public Path take() {
    leader.writeSnapshot(taken);
    return taken;
  }

  @Benchmark
  public long install() {
    follower.installSnapshot(written);
    return follower.lastAppliedIndex();
  }

  /** {@code count} puts cycling over the instances; each pass changes their weight. */
  private void applyWrites(int count) {
    List<byte[]> entry = new ArrayList<>(OPERATIONS_PER_ENTRY);
    for (int i = 0; i < count; i++) {
      int n = next;
      ServiceKey service = new ServiceKey("public", "DEFAULT_GROUP", "orders-" + n / PER_SERVICE);
      entry.add(NamingOperation.newBuilder()
          .setPutInstance(Records.toRecord(Fixtures.instance(service, n, weight, false)))
          .build()
          .toByteArray());
      if (entry.size() == OPERATIONS_PER_ENTRY || i == count - 1) {
        leader.apply(++logIndex, entry);
        entry = new ArrayList<>(OPERATIONS_PER_ENTRY);
      }
      next = (next + 1) % instances;
      if (next == 0) {
        weight = weight == 1.0 ? 2.0 : 1.0;
      }
    }
  }
}
