package dev.nacre.bench.peer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * CPU time of the server processes, from {@code /proc/<pid>/stat} (utime + stime, in clock
 * ticks), so that a series is charged what the servers spent and not what the client spent.
 */
public final class CpuMeter {
  private final List<Long> pids;
  private final long ticksPerSecond;

  public CpuMeter(List<Long> pids, long ticksPerSecond) {
    this.pids = List.copyOf(pids);
    this.ticksPerSecond = ticksPerSecond;
  }

  /** The servers' CPU seconds so far, summed; fails when a server is gone (its figures would lie). */
  public double seconds() {
    long ticks = 0;
    for (long pid : pids) {
      ticks += ticksOf(pid);
    }
    return (double) ticks / ticksPerSecond;
  }

  static long ticksOf(long pid) {
    String stat;
    try {
      stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    } catch (IOException e) {
      throw new IllegalStateException("server process " + pid + " is gone (crashed?): " + e.getMessage(), e);
    }
    // The command name (field 2) may hold spaces, so count fields after its closing parenthesis:
    // there field 3 (state) is the first, utime (14) the 12th and stime (15) the 13th.
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }
}
