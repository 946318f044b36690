package dev.nacre.jmh;

import dev.nacre.consensus.raft.RaftConfig;
import dev.nacre.consensus.raft.RatisReplicatedLog;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link RaftWriteBenchmark#writeSpreadOverMembers} in three processes, as a cluster runs: each
 * member its own JVM with the nodes' heap and JIT settings (those of {@code scripts/lib.sh}),
 * eight closed-loop writers spread as the peer bench spreads its clients (writer t on member
 * t % 3), an unrecorded warm-up, then a measured window in which every member counts its writes
 * and its own process CPU. Not a JMH benchmark (JMH forks one JVM); run from the repository root:
 * {@code java -cp jmh/target/benchmarks.jar dev.nacre.jmh.RaftWritesInThreeProcesses [warm-up s] [measured s]}.
 */
public final class RaftWritesInThreeProcesses {
  private static final int MEMBERS = 3;
  private static final int WRITERS = 8;
  private static final List<String> NODE_JVM = List.of("-Xmx512m", "-XX:TieredStopAtLevel=1",
      "-XX:CompileThresholdScaling=0.1", "-XX:CICompilerCount=1", "-XX:-UseDynamicNumberOfCompilerThreads");
  private static final Duration RENDEZVOUS = Duration.ofSeconds(60);

  private RaftWritesInThreeProcesses() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("member")) {
      member(Integer.parseInt(args[1]), args[2], Path.of(args[3]), Integer.parseInt(args[4]),
          Integer.parseInt(args[5]), Integer.parseInt(args[6]));
      return;
    }
    int warmup = args.length > 0 ? Integer.parseInt(args[0]) : 15;
    int measured = args.length > 1 ? Integer.parseInt(args[1]) : 15;
    Path root = Files.createTempDirectory("nacre-raft-3p");
    try {
      List<String> ports = new ArrayList<>();
      for (int i = 0; i < MEMBERS; i++) {
        ports.add(String.valueOf(LoopbackPorts.free()));
      }
      List<Process> members = new ArrayList<>();
      for (int i = 0; i < MEMBERS; i++) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(NODE_JVM);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), RaftWritesInThreeProcesses.class.getName(),
            "member", String.valueOf(i), String.join(",", ports), root.toString(), String.valueOf(writersOf(i)),
            String.valueOf(warmup), String.valueOf(measured)));
        members.add(new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(root.resolve("member-" + i + ".log").toFile()).start());
      }
      long writes = 0;
      double cpuSeconds = 0;
      for (int i = 0; i < MEMBERS; i++) {
        Process p = members.get(i);
        if (!p.waitFor(warmup + measured + 2 * RENDEZVOUS.toSeconds(), TimeUnit.SECONDS) || p.exitValue() != 0) {
          members.forEach(Process::destroyForcibly);
          throw new IllegalStateException("member " + i + " failed or hung; its log: "
              + Files.readString(root.resolve("member-" + i + ".log")));
        }
        String result = Files.readString(root.resolve("result-" + i)).trim();
        System.out.println("member " + i + ": " + result);
        Map<String, String> fields = new LinkedHashMap<>();
        for (String field : result.split(" ")) {
          String[] kv = field.split("=");
          fields.put(kv[0], kv[1]);
        }
        writes += Long.parseLong(fields.get("writes"));
        cpuSeconds += Double.parseDouble(fields.get("cpuSeconds"));
      }
      System.out.printf("all: %d writes in %d s, %.0f writes/s, %.3f ms of CPU per write (three processes)%n",
          writes, measured, (double) writes / measured, cpuSeconds * 1000 / writes);
    } finally {
      TempFolders.deleteTree(root);
    }
  }

  /** Writers t in [0, WRITERS) with t % MEMBERS == member. */
  private static int writersOf(int member) {
    return (WRITERS - member + MEMBERS - 1) / MEMBERS;
  }

  private static void member(int self, String ports, Path root, int writers, int warmup, int measured)
      throws Exception {
    List<Integer> port = Arrays.stream(ports.split(",")).map(Integer::valueOf).toList();
    RaftConfig config = RaftWriteBenchmark.memberConfig(self, port, root, RaftWriteBenchmark.SECRET).build();
    try (RatisReplicatedLog log = RatisReplicatedLog.start(config, new CountingStateMachine())) {
      log.awaitLeader(RENDEZVOUS);
      meetTheOthers(root, "ready", self, port.size());
      AtomicLong written = new AtomicLong();
      AtomicLong nanos = new AtomicLong();
      AtomicBoolean counting = new AtomicBoolean();
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(warmup + measured);
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        String prefix = "write-" + self + "-" + w + "-";
        Thread t = new Thread(() -> {
          for (long n = 0; System.nanoTime() < end; n++) {
            long t0 = System.nanoTime();
            log.submit((prefix + n).getBytes(StandardCharsets.UTF_8)).join();
            if (counting.get()) {
              written.incrementAndGet();
              nanos.addAndGet(System.nanoTime() - t0);
            }
          }
        });
        t.start();
        threads.add(t);
      }
      var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      Thread.sleep(TimeUnit.SECONDS.toMillis(warmup)); // the warm-up's length, not a wait for anything
      long cpu0 = os.getProcessCpuTime();
      counting.set(true);
      Thread.sleep(TimeUnit.SECONDS.toMillis(measured));
      counting.set(false);
      long cpu = os.getProcessCpuTime() - cpu0;
      for (Thread t : threads) {
        t.join();
      }
      long n = written.get();
      Files.writeString(root.resolve("result-" + self), String.format(java.util.Locale.ROOT,
          "writes=%d meanMs=%.3f cpuSeconds=%.2f", n, n == 0 ? 0 : nanos.get() / 1e6 / n, cpu / 1e9));
      // Stay a member until every one has counted: a member leaving early would slow the others' writes.
      meetTheOthers(root, "done", self, port.size());
    }
  }

  /** Marks {@code self} at {@code stage} and waits, up to the rendezvous bound, until every member has too. */
  private static void meetTheOthers(Path root, String stage, int self, int members)
      throws IOException, InterruptedException {
    Files.writeString(root.resolve(stage + "-" + self), "");
    long deadline = System.nanoTime() + RENDEZVOUS.toNanos();
    for (int i = 0; i < members; i++) {
      while (!Files.exists(root.resolve(stage + "-" + i))) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("member " + i + " did not reach " + stage + " within " + RENDEZVOUS);
        }
        Thread.sleep(20);
      }
    }
  }
}
