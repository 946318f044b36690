package dev.nacre.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** {@code scripts/cluster.sh} for one cluster folder, every call bounded in time. */
final class ClusterScript {
  private final String script;
  private final String dir;

  ClusterScript(String script, String dir) {
    this.script = script;
    this.dir = dir;
  }

  long pid(int index) throws IOException {
    return Long.parseLong(Files.readString(Path.of(dir, "node-" + index, "pid")).trim());
  }

  /** Runs {@code COMMAND INDEX} to its end; fails unless it exits 0 within 120 s. */
  void run(String command, int index) throws IOException, InterruptedException {
    awaitSuccess(launch(command, index), command, index);
  }

  Process launch(String command, int index) throws IOException {
    return new ProcessBuilder(script, command, Integer.toString(index), "--dir", dir)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
  }

  void awaitSuccess(Process p, String command, int index) throws InterruptedException {
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException(script + " " + command + " " + index + " did not finish in 120 s");
    }
    if (p.exitValue() != 0) {
      throw new IllegalStateException(script + " " + command + " " + index + " exited " + p.exitValue());
    }
  }

  /**
   * Waits (bounded, 10 s) until process {@code pid} is gone or a zombie: {@code kill} returns once
   * the signal is sent, and a killed node is an orphan that PID 1 may take seconds to reap, while
   * its ports are already free.
   */
  static void awaitExit(long pid) {
    Path stat = Path.of("/proc", Long.toString(pid), "stat");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      try {
        String s = Files.readString(stat);
        if (s.substring(s.lastIndexOf(')') + 2).startsWith("Z")) {
          return;
        }
      } catch (IOException e) {
        return; // no such process
      }
      CpWrites.sleepMs(5);
    }
  }
}
