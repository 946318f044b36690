package dev.nacre.bench.peer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The Markdown table of a peer run: one row per figure, one column per system, and the ratio
 * Nacre (gRPC) / peer for each peer. Each cell is the median over the measured rounds.
 */
final class Report {
  private static final List<String> SYSTEMS = List.of("nacos-grpc", "nacos-http", "zookeeper", "etcd");
  private static final List<String> PEERS = List.of("zookeeper", "etcd");
  private static final String[][] SERIES = {
      {"ephemeral-register", "ephemeral registrations"},
      {"persistent-register", "persistent registrations"},
      {"persistent-deregister", "persistent deregistrations"},
      {"query", "queries"},
      {"sustained-persistent-register", "sustained persistent registrations"},
      {"sustained-query", "sustained queries"},
  };

  private record Metric(String suffix, ToDoubleFunction<SeriesRow> value, String format) {
  }

  private static final List<Metric> METRICS = List.of(
      new Metric("/s", SeriesRow::perSecond, "%.0f"),
      new Metric("p50 ms", SeriesRow::p50Ms, "%.2f"),
      new Metric("p99 ms", SeriesRow::p99Ms, "%.2f"),
      new Metric("server CPU s / 1000 ops", SeriesRow::cpuPer1000, "%.3f"));

  private final List<SeriesRow> rows;

  Report(List<SeriesRow> rows) {
    this.rows = rows;
  }

  String markdown() {
    List<String> systems = SYSTEMS.stream().filter(s -> rows.stream().anyMatch(r -> r.system().equals(s))).toList();
    List<String> peers = PEERS.stream().filter(systems::contains).toList();
    boolean ratios = systems.contains("nacos-grpc");
    StringBuilder md = new StringBuilder();
    md.append("| figure |");
    systems.forEach(s -> md.append(' ').append(display(s)).append(" |"));
    if (ratios) {
      peers.forEach(p -> md.append(" Nacre gRPC ÷ ").append(display(p)).append(" |"));
    }
    md.append("\n| --- |").append(" ---: |".repeat(systems.size() + (ratios ? peers.size() : 0))).append('\n');
    for (String[] series : SERIES) {
      if (rows.stream().noneMatch(r -> r.series().equals(series[0]))) {
        continue;
      }
      for (Metric m : METRICS) {
        md.append("| ").append(series[1]).append(' ').append(m.suffix()).append(" |");
        for (String s : systems) {
          md.append(' ').append(format(m.format(), median(s, series[0], m.value()))).append(" |");
        }
        if (ratios) {
          double nacre = median("nacos-grpc", series[0], m.value());
          for (String p : peers) {
            md.append(' ').append(ratio(nacre, median(p, series[0], m.value()))).append(" |");
          }
        }
        md.append('\n');
      }
    }
    md.append("| failed operations (all rounds) |");
    for (String s : systems) {
      md.append(' ').append(rows.stream().filter(r -> r.system().equals(s)).mapToLong(SeriesRow::errors).sum()).append(" |");
    }
    md.append(" |".repeat(ratios ? peers.size() : 0)).append('\n');
    return md.toString();
  }

  static String display(String system) {
    return switch (system) {
      case "nacos-grpc" -> "Nacre gRPC";
      case "nacos-http" -> "Nacre HTTP";
      case "zookeeper" -> "ZooKeeper";
      default -> system;
    };
  }

  private double median(String system, String series, ToDoubleFunction<SeriesRow> value) {
    List<Double> values = new ArrayList<>();
    for (SeriesRow r : rows) {
      if (r.system().equals(system) && r.series().equals(series)) {
        values.add(value.applyAsDouble(r));
      }
    }
    if (values.isEmpty()) {
      return Double.NaN;
    }
    values.sort(null);
    int n = values.size();
    return n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
  }

  private static String format(String format, double v) {
    return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, format, v);
  }

  private static String ratio(double nacre, double peer) {
    if (Double.isNaN(nacre) || Double.isNaN(peer) || peer == 0) {
      return "–";
    }
    double r = nacre / peer;
    return String.format(Locale.ROOT, r >= 10 ? "%.0f×" : "%.2f×", r);
  }
}
