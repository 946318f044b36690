package dev.nacre.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Prints the results file as a Markdown table and checks the targets: visibility p99 under
 * 300 ms, failover p90 (9 rounds in 10) under 1.5 s, cluster start under 5 s, restart to ready
 * (p90) under 3 s with few instances and under 5 s holding many, never ready with a partial
 * registry. A target is missed "badly" (exit code 3)
 * when the figure is over twice its target or when a series lost samples (a registration never
 * seen, a failover round that never wrote, more than 1% failed CP writes). Over the target but not
 * badly: a warning only, since this machine is noisy.
 */
final class Summary {
  private Summary() {}

  static int print(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file);
    System.out.println("| figure | series | n | errors | p50 ms | p90 ms | p99 ms | max ms | mean ms | note |");
    System.out.println("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
    int exit = 0;
    StringBuilder verdicts = new StringBuilder();
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split("\t", -1);
      System.out.println("| " + String.join(" | ", f) + " |");
      long n = Long.parseLong(f[2]);
      long errors = Long.parseLong(f[3]);
      double p90 = Double.parseDouble(f[5]);
      double p99 = Double.parseDouble(f[6]);
      String name = f[0] + " / " + f[1];
      switch (f[0]) {
        case "1-visibility" -> exit = Math.max(exit, check(verdicts, name, "p99", p99, 300, errors, n));
        case "3-failover" -> exit = Math.max(exit, check(verdicts, name, "p90", p90, 1500, errors, n));
        case "5-cluster-start" -> exit = Math.max(exit, check(verdicts, name, "p90", p90, 5000, errors, n));
        case "5-restart-ready" -> exit = Math.max(exit,
            check(verdicts, name, "p90", p90, f[1].contains("holding") ? 5000 : 3000, errors, n));
        default -> {
          if (errors * 100 > n + errors) {
            verdicts.append("MISSED BADLY ").append(name).append(": ").append(errors).append(" failed writes\n");
            exit = 3;
          }
        }
      }
    }
    System.out.println();
    System.out.print(verdicts.length() == 0 ? "all targets met\n" : verdicts);
    return exit;
  }

  private static int check(StringBuilder out, String name, String which, double value, double target,
      long errors, long n) {
    if (errors > 0 || n == 0) {
      out.append("MISSED BADLY ").append(name).append(": ").append(errors).append(" sample(s) failed (see the note)\n");
      return 3;
    }
    if (value > 2 * target) {
      out.append("MISSED BADLY ").append(name).append(": ").append(which).append(' ').append(value)
          .append(" ms > 2 x target ").append(target).append(" ms\n");
      return 3;
    }
    if (value > target) {
      out.append("missed ").append(name).append(": ").append(which).append(' ').append(value)
          .append(" ms > target ").append(target).append(" ms\n");
    } else {
      out.append("met    ").append(name).append(": ").append(which).append(' ').append(value)
          .append(" ms <= ").append(target).append(" ms\n");
    }
    return 0;
  }
}
