package dev.nacre.dubbo;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A {@link DubboApp} in a JVM of its own, its output (Logback's lines, see logback-test.xml, and
 * the app's STARTED/CALLS_OK lines) in {@code out.log} under its folder. Each Dubbo application
 * gets a fresh JVM so that start times are cold ones and the provider's and consumer's logs stay
 * apart, as in production.
 */
final class DubboProcess implements AutoCloseable {
  /** {@code HH:mm:ss.SSS LEVEL logger [thread] message}, as logback-test.xml writes it. */
  private static final Pattern EVENT = Pattern.compile("^\\S+ (TRACE|DEBUG|INFO|WARN|ERROR)\\s+(\\S+) \\[");
  private static final Pattern STARTED = Pattern.compile("^STARTED bootstrapMs=(\\d+) sinceJvmStartMs=(\\d+)$");
  private static final Duration STOP_BOUND = Duration.ofSeconds(30);

  private final String name;
  private final Path out;
  private final Process process;

  private DubboProcess(String name, Path out, Process process) {
    this.name = name;
    this.out = out;
    this.process = process;
  }

  /** Starts {@code DubboApp role registry centres calls runSeconds} under {@code dir/name}. */
  static DubboProcess start(Path dir, String name, String... appArgs) {
    Path home = dir.resolve(name);
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m",
        "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
        // The Nacos client keeps its caches and any log file of its own in the app's folder.
        "-DJM.SNAPSHOT.PATH=" + home.resolve("nacos"),
        "-DJM.LOG.PATH=" + home.resolve("nacos").resolve("logs"),
        // Its events go through SLF4J to logback-test.xml's one appender instead of files of its own.
        "-Dnacos.logging.default.config.enabled=false",
        // Dubbo's log lines to SLF4J too (it would pick the first adapter it finds otherwise).
        "-Ddubbo.application.logger=slf4j",
        "-cp", testClassPath(),
        DubboApp.class.getName()));
    command.addAll(List.of(appArgs));
    try {
      Files.createDirectories(home);
      Path out = home.resolve("out.log");
      ProcessBuilder builder = new ProcessBuilder(command).directory(home.toFile()).redirectErrorStream(true)
          .redirectOutput(out.toFile());
      Process p = builder.start();
      return new DubboProcess(name, out, p);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name + ": " + command, e);
    }
  }

  /** Surefire's class path (its own java.class.path is a manifest-only jar). */
  private static String testClassPath() {
    String cp = System.getProperty("surefire.test.class.path");
    return cp != null ? cp : System.getProperty("java.class.path");
  }

  List<String> lines() {
    try {
      return Files.exists(out) ? Files.readAllLines(out, StandardCharsets.UTF_8) : List.of();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether a line equals {@code line}; fails at once if the process died before writing it. */
  boolean printed(String line) {
    if (lines().contains(line)) {
      return true;
    }
    if (!process.isAlive()) {
      throw new AssertionError(name + " exited with " + process.exitValue() + " before printing '" + line + "'\n" + tail());
    }
    return false;
  }

  /** The {@code STARTED} line's two figures, [bootstrapMs, sinceJvmStartMs], once printed. */
  Optional<long[]> started() {
    for (String l : lines()) {
      Matcher m = STARTED.matcher(l);
      if (m.matches()) {
        return Optional.of(new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))});
      }
    }
    if (!process.isAlive()) {
      throw new AssertionError(name + " exited with " + process.exitValue() + " before starting\n" + tail());
    }
    return Optional.empty();
  }

  /** The WARN and ERROR lines (with the lines that continue them: stack traces) of loggers that {@code loggerFilter} accepts. */
  List<String> warnings(java.util.function.Predicate<String> loggerFilter) {
    List<String> found = new ArrayList<>();
    boolean inEvent = false;
    for (String l : lines()) {
      Matcher m = EVENT.matcher(l);
      if (m.find()) {
        inEvent = (m.group(1).equals("WARN") || m.group(1).equals("ERROR")) && loggerFilter.test(m.group(2));
        if (inEvent) {
          found.add(l);
        }
      } else if (inEvent && !l.startsWith("STARTED") && !l.startsWith("CALLS_OK") && !l.equals("STOPPED")) {
        found.add(l);
      }
    }
    return found;
  }

  /** Sends {@code stop} to a provider's standard input. */
  void stop() {
    try {
      OutputStream in = process.getOutputStream();
      in.write("stop\n".getBytes(StandardCharsets.UTF_8));
      in.flush();
    } catch (IOException alreadyGone) {
      // exited already: exitCode() tells how
    }
  }

  /** Waits for the process to exit by itself within {@code bound} and returns its exit code. */
  int exitCode(Duration bound) {
    try {
      if (!process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError(name + " still running after " + bound + "\n" + tail());
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String toString() {
    return name;
  }

  /** The first ERROR lines and exceptions, then the last lines of the output, for failure messages. */
  String tail() {
    List<String> l = lines();
    String problems = l.stream().filter(s -> s.contains(" ERROR ") || s.contains("Exception"))
        .limit(20).map(s -> "    " + s).collect(Collectors.joining("\n", "--- " + name + " first problems\n", "\n"));
    return l.subList(Math.max(0, l.size() - 40), l.size()).stream()
        .map(s -> "    " + s).collect(Collectors.joining("\n", problems + "--- " + name + " " + out + "\n", "\n"));
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroy();
      try {
        if (!process.waitFor(STOP_BOUND.toMillis(), TimeUnit.MILLISECONDS)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
      }
    }
  }
}
