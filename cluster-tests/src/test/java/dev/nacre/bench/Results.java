package dev.nacre.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * One line per measured series in a tab-separated file, so that a run of several processes can be
 * summarised at the end. Values are milliseconds.
 */
final class Results {
  static final String HEADER =
      "figure\tseries\tn\terrors\tp50_ms\tp90_ms\tp99_ms\tmax_ms\tmean_ms\tnote";

  private Results() {}

  /** A histogram in microseconds: 1 µs to 60 s at 3 significant digits. */
  static Histogram newHistogram() {
    return new Histogram(1, 60_000_000L, 3);
  }

  /** A histogram of values given in whole milliseconds (as a script times them). */
  static Histogram histogramOfMs(String... values) {
    Histogram h = newHistogram();
    for (String v : values) {
      h.recordValue(Math.max(1, Long.parseLong(v.trim()) * 1000));
    }
    return h;
  }

  static String row(String figure, String series, Histogram h, long errors, String note) {
    return String.join("\t", figure, series, Long.toString(h.getTotalCount()), Long.toString(errors),
        ms(h.getValueAtPercentile(50)), ms(h.getValueAtPercentile(90)),
        ms(h.getValueAtPercentile(99)), ms(h.getMaxValue()),
        String.format(Locale.ROOT, "%.1f", h.getMean() / 1000.0), note);
  }

  static String ms(long micros) {
    return String.format(Locale.ROOT, "%.1f", micros / 1000.0);
  }

  static void append(Path file, String row) {
    System.out.println("RESULT " + row.replace('\t', ' '));
    if (file == null) {
      return;
    }
    try {
      if (!Files.exists(file)) {
        Files.writeString(file, HEADER + "\n", StandardCharsets.UTF_8);
      }
      Files.write(file, List.of(row), StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write results to " + file, e);
    }
  }
}
