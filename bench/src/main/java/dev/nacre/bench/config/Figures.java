package dev.nacre.bench.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The figures of one run, each a list of per-round values in the order measured, printed as one
 * Markdown table: the median, the rounds, and the target with whether the median meets it.
 */
final class Figures {
  /** A target on a figure's median: at least or at most {@code bound}. */
  record Target(boolean atLeast, double bound, String text) {
    static Target atLeast(double bound, String text) {
      return new Target(true, bound, text);
    }

    static Target atMost(double bound, String text) {
      return new Target(false, bound, text);
    }

    String verdict(double median) {
      if (Double.isNaN(median)) {
        return "not measured";
      }
      boolean met = atLeast ? median >= bound : median <= bound;
      if (met) {
        return "met";
      }
      return bound == 0 ? "missed" : String.format(Locale.ROOT, "missed (%.2fx the bound)", median / bound);
    }
  }

  private record Figure(String format, List<Double> values, Target target) {}

  private final Map<String, Figure> figures = new LinkedHashMap<>();

  /** Adds a round's value to the figure (created on first use with this format and target, which may be null). */
  void add(String name, String format, Target target, double value) {
    figures.computeIfAbsent(name, n -> new Figure(format, new ArrayList<>(), target)).values().add(value);
  }

  void add(String name, String format, double value) {
    add(name, format, null, value);
  }

  double median(String name) {
    Figure f = figures.get(name);
    return f == null ? Double.NaN : median(f.values());
  }

  static double median(List<Double> values) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  String markdown() {
    StringBuilder md = new StringBuilder("| figure | median | rounds | target | |\n| --- | ---: | --- | --- | --- |\n");
    figures.forEach((name, f) -> {
      double median = median(f.values());
      String rounds = f.values().size() == 1 ? "" : f.values().stream()
          .map(v -> String.format(Locale.ROOT, f.format(), v)).collect(Collectors.joining(", "));
      md.append("| ").append(name).append(" | ").append(String.format(Locale.ROOT, f.format(), median)).append(" | ")
          .append(rounds).append(" | ").append(f.target() == null ? "" : f.target().text()).append(" | ")
          .append(f.target() == null ? "" : f.target().verdict(median)).append(" |\n");
    });
    return md.toString();
  }
}
