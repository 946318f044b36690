package dev.nacre.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Entry point of the load generator that {@code scripts/bench.sh} runs (not a test: surefire skips
 * it by name). Loopback HTTP only; every loop is bounded in count and time.
 *
 * <pre>
 * visibility --nodes URL,URL[,..] --count N [--warmup 20] [--sample-timeout-ms 5000] [--poll-pause-us 200] --series S --out F
 * cp         --node URL --count N [--writers 1] [--warmup 20] --figure F --series S --out F
 * failover   --nodes URL,.. --script scripts/cluster.sh --dir D --rounds R --series S --out F
 * restart    --nodes URL,.. --script scripts/cluster.sh --dir D --rounds R [--persistent N] [--ephemeral N] [--churn W] --series S --out F
 * samples    --figure F --series S --ms V,V,.. --note N --out F   one row from values measured elsewhere (ms)
 * summary    --in F            prints the table; exits 3 when a target is missed badly
 * </pre>
 */
public final class BenchMain {
  private BenchMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      usage();
      return;
    }
    Map<String, String> opt = options(Arrays.copyOfRange(args, 1, args.length));
    Path out = opt.containsKey("out") ? Path.of(opt.get("out")) : null;
    String runId = Long.toString(System.currentTimeMillis() % 100_000_000L, 36);
    Http http = new Http(Duration.ofSeconds(Long.parseLong(opt.getOrDefault("http-timeout-s", "10"))));
    switch (args[0]) {
      case "visibility" -> new Visibility(http, nodes(opt), runId).run(
          intOpt(opt, "warmup", 20), intOpt(opt, "count", 200), Long.parseLong(opt.getOrDefault("sample-timeout-ms", "5000")),
          Long.parseLong(opt.getOrDefault("poll-pause-us", "200")), opt.getOrDefault("series", "3 nodes"), out);
      case "cp" -> new CpWrites(http, runId).run(required(opt, "node"), intOpt(opt, "count", 200),
          intOpt(opt, "writers", 1), intOpt(opt, "warmup", 20), opt.getOrDefault("figure", "2-cp-write"),
          opt.getOrDefault("series", "cp"), out);
      case "failover" -> new Failover(http, nodes(opt), required(opt, "script"), required(opt, "dir"), runId)
          .run(intOpt(opt, "rounds", 10), opt.getOrDefault("series", "3 nodes"), out);
      case "restart" -> new Restart(http, nodes(opt), required(opt, "script"), required(opt, "dir"))
          .run(intOpt(opt, "rounds", 3), intOpt(opt, "persistent", 0), intOpt(opt, "ephemeral", 0),
              intOpt(opt, "churn", 0), opt.getOrDefault("series", "3 nodes"), out);
      case "samples" -> Results.append(out, Results.row(required(opt, "figure"), required(opt, "series"),
          Results.histogramOfMs(required(opt, "ms").split(",")), 0, required(opt, "note")));
      case "summary" -> System.exit(Summary.print(Path.of(required(opt, "in"))));
      default -> usage();
    }
  }

  private static void usage() {
    System.err.println("usage: BenchMain visibility|cp|failover|restart|samples|summary [--option value ...] (see the class javadoc)");
    System.exit(2);
  }

  private static Map<String, String> options(String[] args) {
    Map<String, String> map = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("expected --name value, got " + args[i]);
      }
      map.put(args[i].substring(2), args[++i]);
    }
    return map;
  }

  private static List<String> nodes(Map<String, String> opt) {
    return List.of(required(opt, "nodes").split(","));
  }

  private static String required(Map<String, String> opt, String name) {
    String v = opt.get(name);
    if (v == null) {
      throw new IllegalArgumentException("--" + name + " is required");
    }
    return v;
  }

  private static int intOpt(Map<String, String> opt, String name, int dflt) {
    return opt.containsKey(name) ? Integer.parseInt(opt.get(name)) : dflt;
  }
}
