package dev.nacre.bench.peer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The peer benchmark's driver, run by {@code scripts/bench.sh --against ...}: {@code run} loads one
 * system that the script started, {@code report} turns the results file into the Markdown table.
 */
@Command(name = "peer-bench", mixinStandardHelpOptions = true,
    subcommands = {PeerBench.Run.class, PeerBench.Report.class})
public final class PeerBench {
  public static void main(String[] args) {
    System.exit(new CommandLine(new PeerBench()).execute(args));
  }

  @Command(name = "run", description = "Drive one system with the bounded load and append its figures.")
  static final class Run implements Callable<Integer> {
    @Option(names = "--system", required = true, description = "nacos-grpc, nacos-http, zookeeper or etcd")
    String system;
    @Option(names = "--nodes", required = true, split = ",", description = "host:port of each node; client c uses node c % n")
    List<String> nodes;
    @Option(names = "--pids", required = true, split = ",", description = "the server processes whose CPU is charged")
    List<Long> pids;
    @Option(names = "--clk-tck", defaultValue = "100", description = "clock ticks per second (getconf CLK_TCK)")
    long clockTicks;
    @Option(names = "--clients", defaultValue = "8")
    int clients;
    @Option(names = "--ephemeral", defaultValue = "2000", description = "ephemeral registrations a round")
    int ephemeral;
    @Option(names = "--persistent", defaultValue = "500", description = "persistent registrations (and deregistrations) a round")
    int persistent;
    @Option(names = "--query-seconds", defaultValue = "15")
    int querySeconds;
    @Option(names = "--query-services", defaultValue = "16")
    int queryServices;
    @Option(names = "--per-service", defaultValue = "10", description = "instances of each queried service")
    int perService;
    @Option(names = "--rounds", defaultValue = "2", description = "measured rounds, after one warm-up round")
    int rounds;
    @Option(names = "--sustained", description = "also the sustained series (10 s warm-up, 15 s measured)")
    boolean sustained;
    @Option(names = "--run-id", required = true, description = "makes service names unique to this run")
    String runId;
    @Option(names = "--out", required = true)
    Path out;

    @Override
    public Integer call() throws Exception {
      if (!List.of("nacos-grpc", "nacos-http", "zookeeper", "etcd").contains(system)) {
        throw new CommandLine.ParameterException(new CommandLine(this), "unknown --system " + system);
      }
      List<RegistryDriver> drivers = new ArrayList<>();
      try {
        for (int c = 0; c < clients; c++) {
          drivers.add(open(system, nodes.get(c % nodes.size())));
        }
        LoadRunner<RegistryDriver> runner = new LoadRunner<>(drivers, new CpuMeter(pids, clockTicks));
        Workload workload = new Workload(system + "-" + runId, clients, queryServices, perService);
        SystemRun.Plan plan = new SystemRun.Plan(ephemeral, persistent, Duration.ofSeconds(querySeconds), rounds,
            sustained, Duration.ofSeconds(10), Duration.ofSeconds(15));
        new SystemRun(system, runner, workload, plan, out).run();
        return 0;
      } finally {
        drivers.forEach(RegistryDriver::close);
      }
    }

    static RegistryDriver open(String system, String hostPort) throws Exception {
      return switch (system) {
        case "nacos-grpc" -> new NacosGrpcDriver(hostPort);
        case "nacos-http" -> new NacosHttpDriver(hostPort);
        case "zookeeper" -> new ZooKeeperDriver(hostPort);
        case "etcd" -> new EtcdDriver(hostPort);
        default -> throw new IllegalArgumentException(system);
      };
    }
  }

  @Command(name = "report", description = "Print the Markdown section of a run's results.")
  static final class Report implements Callable<Integer> {
    @Option(names = "--in", required = true)
    Path in;
    @Option(names = "--command", required = true, description = "the command line, quoted in the heading")
    String command;
    @Option(names = "--commit", defaultValue = "?")
    String commit;
    @Option(names = "--setup", defaultValue = "", description = "one line on the sizes and the machine")
    String setup;

    @Override
    public Integer call() throws Exception {
      String when = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
      StringBuilder md = new StringBuilder();
      md.append("### Peer run ").append(when).append(": `").append(command).append("`, commit ").append(commit).append("\n\n");
      if (!setup.isBlank()) {
        md.append(setup).append("\n\n");
      }
      md.append("Ratio columns: Nacre gRPC's figure divided by the peer's. For `/s` above 1 means Nacre is faster; ")
          .append("for `ms` and `server CPU s / 1000 ops` below 1 means Nacre is better (less time, less CPU).\n\n");
      md.append(new dev.nacre.bench.peer.Report(SeriesRow.readAll(in)).markdown());
      System.out.print(md);
      return Files.exists(in) ? 0 : 1;
    }
  }

}
