package dev.nacre.bench.peer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** One measured series of one round, as a line of the results file (tab-separated). */
record SeriesRow(String system, String series, int round, long ops, long errors, double seconds,
    double p50Ms, double p99Ms, double cpuSeconds) {

  static SeriesRow of(String system, String series, int round, LoadRunner.Outcome<?> o) {
    return new SeriesRow(system, series, round, o.ops(), o.errors(), o.seconds(),
        o.latencyMicros().getValueAtPercentile(50) / 1000.0, o.latencyMicros().getValueAtPercentile(99) / 1000.0,
        o.cpuSeconds());
  }

  double perSecond() {
    return ops / seconds;
  }

  /** Server CPU seconds (3 processes summed) per 1000 acknowledged operations. */
  double cpuPer1000() {
    return ops == 0 ? Double.NaN : cpuSeconds * 1000 / ops;
  }

  void appendTo(Path file) throws IOException {
    String line = String.format(Locale.ROOT, "%s\t%s\t%d\t%d\t%d\t%.3f\t%.3f\t%.3f\t%.3f%n",
        system, series, round, ops, errors, seconds, p50Ms, p99Ms, cpuSeconds);
    Files.writeString(file, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  static List<SeriesRow> readAll(Path file) throws IOException {
    List<SeriesRow> rows = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (line.isBlank()) {
        continue;
      }
      String[] f = line.split("\t");
      rows.add(new SeriesRow(f[0], f[1], Integer.parseInt(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4]),
          Double.parseDouble(f[5]), Double.parseDouble(f[6]), Double.parseDouble(f[7]), Double.parseDouble(f[8])));
    }
    return rows;
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%-12s %-30s round %d: %6d ops %3d errors %7.1f/s p50 %7.2f ms p99 %7.2f ms, server CPU %.2f s (%.3f s/1000)",
        system, series, round, ops, errors, perSecond(), p50Ms, p99Ms, cpuSeconds, cpuPer1000());
  }
}
