package dev.nacre.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The suite's result files in one folder: {@code started.log} (a line per scenario started),
 * {@code verdicts.log} (its verdict line) and, for a failed scenario, {@code <name>-<seed>.txt}
 * (reports, cluster dump, history). {@code scripts/fault-suite.sh} reads the first two: a started
 * scenario without a verdict counts as failed.
 */
final class VerdictLog {
  private final Path dir;

  VerdictLog(Path dir) {
    this.dir = dir;
  }

  void started(String name, int nodes, long seed) {
    append("started.log", "START " + name + " nodes=" + nodes + " seed=" + seed + "\n");
  }

  void verdict(String line) {
    append("verdicts.log", line + "\n");
  }

  /** The verdict line with every check's report and the notes, for passing scenarios too. */
  void report(String text) {
    append("reports.log", text + "\n");
  }

  void failure(String name, long seed, String text) {
    try {
      Files.createDirectories(dir);
      Files.writeString(failureFile(name, seed), text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the failure report to " + dir, e);
    }
  }

  Path failureFile(String name, long seed) {
    return dir.resolve(name + "-" + seed + ".txt");
  }

  private void append(String file, String text) {
    try {
      Files.createDirectories(dir);
      Files.writeString(dir.resolve(file), text, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
          StandardOpenOption.APPEND, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot append to " + dir.resolve(file), e);
    }
  }
}
