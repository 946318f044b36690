package dev.nacre.bench.config;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The members' {@code nacre_config_notifications_seconds} timer (GET /metrics): from a change
 * reaching a member to its client's acknowledgement (result="acked"), or a failure. A snapshot of
 * every member's cumulative buckets, summed; the difference of two snapshots gives the
 * notifications between them and their percentiles, to the resolution of the fixed buckets
 * (1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000 ms), linearly interpolated inside one.
 */
final class NotificationTimer {
  private static final Pattern LINE = Pattern.compile(
      "(?m)^nacre_config_notifications_seconds_(bucket|count|sum)\\{([^}]*)} ([0-9.eE+-]+)$");
  private static final Pattern RESULT = Pattern.compile("result=\"([^\"]*)\"");
  private static final Pattern LE = Pattern.compile("le=\"([^\"]*)\"");
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  /** result -> (le seconds -> cumulative count); result -> count; result -> sum seconds. */
  record Snapshot(Map<String, TreeMap<Double, Double>> buckets, Map<String, Double> counts, Map<String, Double> sums) {
    Snapshot minus(Snapshot before) {
      Map<String, TreeMap<Double, Double>> b = new TreeMap<>();
      buckets.forEach((result, les) -> {
        TreeMap<Double, Double> d = new TreeMap<>();
        TreeMap<Double, Double> old = before.buckets.getOrDefault(result, new TreeMap<>());
        les.forEach((le, v) -> d.put(le, v - old.getOrDefault(le, 0.0)));
        b.put(result, d);
      });
      Map<String, Double> c = new TreeMap<>();
      counts.forEach((r, v) -> c.put(r, v - before.counts.getOrDefault(r, 0.0)));
      Map<String, Double> s = new TreeMap<>();
      sums.forEach((r, v) -> s.put(r, v - before.sums.getOrDefault(r, 0.0)));
      return new Snapshot(b, c, s);
    }

    Snapshot plus(Snapshot other) {
      Map<String, TreeMap<Double, Double>> b = new TreeMap<>();
      for (Snapshot x : List.of(this, other)) {
        x.buckets.forEach((result, les) -> les.forEach((le, v) -> b.computeIfAbsent(result, k -> new TreeMap<>()).merge(le, v, Double::sum)));
      }
      Map<String, Double> c = new TreeMap<>(counts);
      other.counts.forEach((r, v) -> c.merge(r, v, Double::sum));
      Map<String, Double> s = new TreeMap<>(sums);
      other.sums.forEach((r, v) -> s.merge(r, v, Double::sum));
      return new Snapshot(b, c, s);
    }

    double count(String result) {
      return counts.getOrDefault(result, 0.0);
    }

    double meanMs(String result) {
      double n = count(result);
      return n == 0 ? Double.NaN : sums.getOrDefault(result, 0.0) * 1000 / n;
    }

    /** The p-th percentile in ms of {@code result}'s notifications, interpolated in its bucket; NaN when none. */
    double percentileMs(String result, double p) {
      TreeMap<Double, Double> les = buckets.get(result);
      double n = count(result);
      if (les == null || n <= 0) {
        return Double.NaN;
      }
      double rank = Math.max(1, Math.ceil(p / 100 * n));
      double prevLe = 0;
      double prevCount = 0;
      for (Map.Entry<Double, Double> e : les.entrySet()) {
        if (e.getValue() >= rank) {
          if (e.getKey().isInfinite()) {
            return Double.POSITIVE_INFINITY; // beyond the last bound (5 s)
          }
          double inBucket = e.getValue() - prevCount;
          double f = inBucket <= 0 ? 1 : (rank - prevCount) / inBucket;
          return (prevLe + f * (e.getKey() - prevLe)) * 1000;
        }
        prevLe = e.getKey();
        prevCount = e.getValue();
      }
      return Double.NaN;
    }

    String describe() {
      StringBuilder s = new StringBuilder();
      for (String result : counts.keySet()) {
        if (count(result) == 0) {
          continue;
        }
        s.append(String.format(Locale.ROOT, "%s%s %.0f (mean %.1f ms, p50 %.1f, p99 %.1f)", s.length() == 0 ? "" : "; ",
            result, count(result), meanMs(result), percentileMs(result, 50), percentileMs(result, 99)));
      }
      return s.length() == 0 ? "none" : s.toString();
    }
  }

  private NotificationTimer() {}

  static Snapshot read(List<String> nodes) throws IOException, InterruptedException {
    Map<String, TreeMap<Double, Double>> buckets = new TreeMap<>();
    Map<String, Double> counts = new TreeMap<>();
    Map<String, Double> sums = new TreeMap<>();
    for (String node : nodes) {
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://" + node + "/metrics"))
          .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new IOException("GET /metrics on " + node + ": HTTP " + r.statusCode());
      }
      Matcher m = LINE.matcher(r.body());
      while (m.find()) {
        Matcher rm = RESULT.matcher(m.group(2));
        String result = rm.find() ? rm.group(1) : "?";
        double v = Double.parseDouble(m.group(3));
        switch (m.group(1)) {
          case "bucket" -> {
            Matcher lm = LE.matcher(m.group(2));
            if (lm.find()) {
              double le = lm.group(1).equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(lm.group(1));
              buckets.computeIfAbsent(result, k -> new TreeMap<>()).merge(le, v, Double::sum);
            }
          }
          case "count" -> counts.merge(result, v, Double::sum);
          default -> sums.merge(result, v, Double::sum);
        }
      }
    }
    return new Snapshot(buckets, counts, sums);
  }
}
