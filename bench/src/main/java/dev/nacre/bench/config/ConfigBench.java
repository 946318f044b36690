package dev.nacre.bench.config;

import dev.nacre.bench.peer.CpuMeter;
import dev.nacre.bench.peer.LoadRunner;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The configuration bench, run by {@code scripts/bench.sh --config}: the official nacos-client
 * 2.5.1 against a running cluster of {@code scripts/cluster.sh}. In this order, so that the heap
 * is read on an empty cluster: (4) heap per configuration and restart, then (1) reads against
 * instance queries, (2) publishes against persistent registrations, (3) notification fan-out.
 * Prints one Markdown table of medians over the rounds.
 */
@Command(name = "config-bench", mixinStandardHelpOptions = true)
public final class ConfigBench implements Callable<Integer> {
  @Option(names = "--nodes", required = true, split = ",", description = "host:port of each member; client c uses member c % n")
  List<String> nodes;
  @Option(names = "--cluster-dir", required = true, description = "the folder of scripts/cluster.sh (node-I/pid)")
  Path clusterDir;
  @Option(names = "--clk-tck", defaultValue = "100", description = "clock ticks per second (getconf CLK_TCK)")
  long clockTicks;
  @Option(names = "--clients", defaultValue = "8")
  int clients;
  @Option(names = "--rounds", defaultValue = "3", description = "measured rounds of reads and writes, after a warm-up round")
  int rounds;
  @Option(names = "--reads", defaultValue = "16000", description = "config reads, and instance queries, a round")
  int reads;
  @Option(names = "--writes", defaultValue = "800", description = "publishes, and persistent registrations, a round")
  int writes;
  @Option(names = "--content-bytes", defaultValue = "1024")
  int contentBytes;
  @Option(names = "--per-service", defaultValue = "4", description = "instances of each queried service (about a content's size as JSON)")
  int perService;
  @Option(names = "--listeners", defaultValue = "1000", description = "ConfigServices listening in the fan-out")
  int listeners;
  @Option(names = "--driver-jvms", defaultValue = "5", description = "JVMs the fan-out's listeners are spread over; 0: in this JVM")
  int driverJvms;
  @Option(names = "--driver-heap", defaultValue = "512m", description = "-Xmx of each fan-out driver JVM")
  String driverHeap;
  @Option(names = "--fanout-only", description = "only the fan-out (figure 3): no heap, restart, reads or writes")
  boolean fanoutOnly;
  @Option(names = "--fanout-rounds", defaultValue = "20")
  int fanoutRounds;
  @Option(names = "--configurations", defaultValue = "10000", description = "held for the heap and restart figures; 0 skips them")
  int configurations;
  @Option(names = "--settle-seconds", defaultValue = "70", description = "wait before reading the heap (Ratis' 60 s retry cache)")
  int settleSeconds;
  @Option(names = "--restarts", defaultValue = "3")
  int restarts;
  @Option(names = "--restart-command", description = "kills the last member and starts it again, returning once it is ready")
  String restartCommand;
  @Option(names = "--command", defaultValue = "", description = "the command line, quoted in the heading")
  String command;
  @Option(names = "--commit", defaultValue = "?")
  String commit;

  public static void main(String[] args) {
    int rc = new CommandLine(new ConfigBench()).execute(args);
    System.exit(rc); // nacos-client leaves non-daemon threads behind
  }

  @Override
  public Integer call() throws Exception {
    String prefix = "cb" + Long.toString(System.currentTimeMillis() % 1_000_000, 36);
    Members members = new Members(nodes, clusterDir);
    Figures figures = new Figures();
    if (configurations > 0 && !fanoutOnly) {
      Memory memory = new Memory(prefix, members, new Memory.Plan(configurations, contentBytes, settleSeconds,
          restartCommand == null ? 0 : restarts, restartCommand), figures);
      List<Client> writers = Client.openAll(nodes, clients, false, clients);
      try {
        memory.publishAndMeasure(new LoadRunner<>(writers, new CpuMeter(members.pids(), clockTicks)));
      } finally {
        Client.closeAll(writers);
      }
      memory.restarts();
    }
    List<Client> pairs = fanoutOnly ? List.of() : Client.openAll(nodes, clients, true, clients);
    try {
      if (!fanoutOnly) {
        // The pids after the restarts: a series charges the members running now.
        LoadRunner<Client> runner = new LoadRunner<>(pairs, new CpuMeter(members.pids(), clockTicks));
        new Throughput(prefix, runner, members, new Throughput.Plan(reads, writes, contentBytes, perService, rounds), figures).run();
      }
    } finally {
      Client.closeAll(pairs);
    }
    if (listeners > 0) {
      new FanOut(prefix, members, new FanOut.Plan(listeners, fanoutRounds, contentBytes, driverJvms, driverHeap), figures).run();
    }
    String when = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
    System.out.printf("%n### Config run %s: `%s`, commit %s%n%n", when, command, commit);
    if (fanoutOnly) {
      System.out.printf("%d members (one JVM each) on loopback; fan-out only: %d listening ConfigServices of the official "
              + "nacos-client 2.5.1 over %s, %d measured rounds after a warm-up, %d-byte content; %d cores shared by members "
              + "and drivers.%n%n", nodes.size(), listeners, driverJvms > 0 ? driverJvms + " driver JVMs (-Xmx" + driverHeap + " each)"
              : "the bench's own JVM", fanoutRounds, contentBytes, Runtime.getRuntime().availableProcessors());
      System.out.print(figures.markdown());
      return 0;
    }
    System.out.printf("%d members (one JVM each) on loopback; official nacos-client 2.5.1 in one separate JVM: "
            + "%d clients (a ConfigService and a NamingService each, client c on member c %% %d) for reads and writes, "
            + "%d measured rounds after a warm-up, %d reads and %d queries, %d publishes and %d persistent registrations "
            + "a round, order alternated; %d listening ConfigServices, %d fan-out rounds; %d configurations of %d bytes "
            + "held for the heap; %d cores shared by members and driver. Ratios are per round (same run), then the median.%n%n",
        nodes.size(), clients, nodes.size(), rounds, reads, reads, writes, writes, listeners, fanoutRounds, configurations,
        contentBytes, Runtime.getRuntime().availableProcessors());
    System.out.print(figures.markdown());
    return 0;
  }
}
