package dev.nacre.jmh;

import dev.nacre.consensus.raft.RaftConfig;
import dev.nacre.consensus.raft.RatisReplicatedLog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * One replicated write through the consensus layer alone: three Raft members in this JVM on
 * loopback (Ratis, gRPC, mutual TLS, the log flushed to disk, group commit), each writer thread
 * submitting through a member and waiting until that member has applied the write, as a
 * persistent registration does: all through one follower, or spread over the members. No
 * naming, no RocksDB, no client protocol: what is left is the consensus layer's own cost.
 * The CPU of all three members per write, and their thread switches, come from JMH's perf
 * profiler: {@code -prof "perfnorm:events=task-clock,context-switches"} (ms and switches per op).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-XX:TieredStopAtLevel=1", "-XX:CompileThresholdScaling=0.1"})
public class RaftWriteBenchmark {
  static final String SECRET = "a cluster secret of benchmark length, 32+ chars";

  /** Whether the members speak mutual TLS (a cluster secret) or plaintext. */
  @Param({"true"})
  public boolean tls;

  /** Raft entries the leader keeps in flight ({@code RaftConfig.DEFAULT_BATCHES_IN_FLIGHT} is 1). */
  @Param({"1"})
  public int batchesInFlight;

  /** The leader's linger for the next entry, microseconds (-1: the node's default). */
  @Param({"-1"})
  public long lingerMicros;

  private Path root;
  private final List<RatisReplicatedLog> members = new ArrayList<>();
  private RatisReplicatedLog writer;
  private final AtomicLong sequence = new AtomicLong();

  @Setup(Level.Trial)
  public void start() throws IOException {
    root = Files.createTempDirectory("nacre-raft-bench");
    List<Integer> ports = List.of(LoopbackPorts.free(), LoopbackPorts.free(), LoopbackPorts.free());
    for (int i = 0; i < ports.size(); i++) {
      RaftConfig config = memberConfig(i, ports, root, tls ? SECRET : null)
          .batchesInFlight(batchesInFlight)
          .batchLinger(lingerMicros < 0
              ? RaftConfig.DEFAULT_BATCH_LINGER : Duration.of(lingerMicros, ChronoUnit.MICROS))
          .build();
      members.add(RatisReplicatedLog.start(config, new CountingStateMachine()));
    }
    members.get(0).awaitLeader(Duration.ofSeconds(30));
    writer = members.stream().filter(m -> !m.status().role().equals("LEADER")).findFirst().orElseThrow();
    writer.submit(operation()).join();
  }

  /**
   * Member {@code self} of the group "bench": member i is "m" + i on the loopback port
   * {@code ports.get(i)}, its log under {@code root}.
   */
  static RaftConfig.Builder memberConfig(int self, List<Integer> ports, Path root, String secret) {
    Map<String, String> peers = new LinkedHashMap<>();
    for (int i = 0; i < ports.size(); i++) {
      peers.put("m" + i, "127.0.0.1:" + ports.get(i));
    }
    return RaftConfig.builder().groupId("bench").selfId("m" + self).peers(peers)
        .storageDir(root.resolve("m" + self)).clusterSecret(secret);
  }

  @TearDown(Level.Trial)
  public void stop() throws IOException {
    members.forEach(RatisReplicatedLog::close);
    TempFolders.deleteTree(root);
  }

  @Benchmark
  public byte[] writeThroughFollower() {
    return writer.submit(operation()).join();
  }

  /**
   * Writers spread over the members as the peer bench spreads its clients (thread t on member
   * t % 3): run with {@code -t 8} to compare with a node cluster under eight writers.
   */
  @Benchmark
  public byte[] writeSpreadOverMembers(MemberOfThread member) {
    return member.log.submit(operation()).join();
  }

  /** The member a benchmark thread writes through. */
  @State(Scope.Thread)
  public static class MemberOfThread {
    RatisReplicatedLog log;

    @Setup(Level.Trial)
    public void pick(RaftWriteBenchmark bench, ThreadParams thread) {
      log = bench.members.get(thread.getThreadIndex() % bench.members.size());
    }
  }

  private byte[] operation() {
    return ("write-" + sequence.incrementAndGet()).getBytes(StandardCharsets.UTF_8);
  }
}
