package dev.nacre.bench.memory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The live objects of a JVM by class, from {@code jcmd PID GC.class_histogram}, which runs a full
 * GC first: what is left is what the process holds on to.
 */
public record Histogram(long totalBytes, Map<String, Long> bytesByClass) {
  private static final Pattern TOTAL = Pattern.compile("(?m)^Total\\s+(\\d+)\\s+(\\d+)");
  private static final Pattern ROW = Pattern.compile("(?m)^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)");

  public record Growth(String className, long bytes) {}

  public static Histogram of(long pid) throws IOException, InterruptedException {
    Process jcmd = new ProcessBuilder("jcmd", Long.toString(pid), "GC.class_histogram")
        .redirectErrorStream(true).start();
    String out = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!jcmd.waitFor(120, TimeUnit.SECONDS) || jcmd.exitValue() != 0) {
      throw new IllegalStateException("jcmd " + pid + " GC.class_histogram failed: " + out);
    }
    return parse(out);
  }

  static Histogram parse(String text) {
    Map<String, Long> bytes = new HashMap<>();
    Matcher m = ROW.matcher(text);
    while (m.find()) {
      bytes.merge(m.group(3), Long.parseLong(m.group(2)), Long::sum);
    }
    return new Histogram(totalOf(text), bytes);
  }

  private static long totalOf(String histogram) {
    Matcher m = TOTAL.matcher(histogram);
    if (!m.find()) {
      throw new IllegalStateException("no Total line in the class histogram");
    }
    return Long.parseLong(m.group(2));
  }

  /** Classes whose live bytes grew since {@code before}, largest growth first. */
  public List<Growth> growthOver(Histogram before) {
    List<Growth> out = new ArrayList<>();
    bytesByClass.forEach((cls, b) -> {
      long grew = b - before.bytesByClass.getOrDefault(cls, 0L);
      if (grew > 0) {
        out.add(new Growth(cls, grew));
      }
    });
    out.sort(Comparator.comparingLong(Growth::bytes).reversed());
    return out;
  }
}
