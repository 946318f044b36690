package dev.nacre.bench.config;

import dev.nacre.bench.memory.Histogram;
import dev.nacre.bench.peer.LoadRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Figure 4, on the fresh cluster before anything else: every member's live heap (after a full GC,
 * {@code jcmd GC.class_histogram}) empty and holding {@code configurations} published
 * configurations; then kill -9 of the last member and its start again, timed to ready, and what it
 * serves right then (its count, and every configuration's MD5 against what was published).
 */
final class Memory {
  private static final Duration SERIES_LIMIT = Duration.ofMinutes(10);

  record Plan(int configurations, int contentBytes, int settleSeconds, int restarts, String restartCommand) {}

  private final String group;
  private final Members members;
  private final Plan plan;
  private final Figures figures;

  Memory(String prefix, Members members, Plan plan, Figures figures) {
    this.group = prefix + "-mem";
    this.members = members;
    this.plan = plan;
    this.figures = figures;
  }

  private String content(int i) {
    return Contents.of("m" + i + "\n", 7_000_000L + i, plan.contentBytes());
  }

  private static String dataId(int i) {
    return "m-" + i;
  }

  /** Publishes the set through {@code runner}'s clients and reads the heaps. */
  void publishAndMeasure(LoadRunner<Client> runner) throws Exception {
    List<Histogram> empty = histograms();
    List<Long> before = members.each(members::configurations);
    List<List<Integer>> work = new ArrayList<>();
    for (int c = 0; c < runner.clients(); c++) {
      List<Integer> mine = new ArrayList<>();
      for (int i = c; i < plan.configurations(); i += runner.clients()) {
        mine.add(i);
      }
      work.add(mine);
    }
    long t0 = System.nanoTime();
    LoadRunner.Outcome<Integer> published = runner.counted("memory-publish", work, (c, i) -> {
      if (!c.config().publishConfig(dataId(i), group, content(i))) {
        throw new IllegalStateException("publish of " + dataId(i) + " refused");
      }
    }, SERIES_LIMIT);
    if (published.errors() > 0) {
      throw new IllegalStateException(published.errors() + " of the memory set's publishes failed; the run cannot go on");
    }
    members.await("after the memory set's publishes", members::configurations,
        before.stream().map(v -> v + plan.configurations()).toList(), Duration.ofMinutes(2));
    System.out.printf(Locale.ROOT, "published %d configurations of %d bytes in %.1f s (%.0f/s, %d clients), every member holds them%n",
        plan.configurations(), plan.contentBytes(), (System.nanoTime() - t0) / 1e9,
        published.ops() / published.seconds(), runner.clients());
    System.out.printf("waiting %d s before reading the heaps (Ratis keeps each write's reply 60 s in its retry cache)%n",
        plan.settleSeconds());
    Thread.sleep(plan.settleSeconds() * 1000L); // a fixed wait by design: what expires by then is not per-configuration cost
    List<Histogram> holding = histograms();
    for (int n = 0; n < empty.size(); n++) {
      Histogram b = empty.get(n);
      Histogram a = holding.get(n);
      double perConfig = (double) (a.totalBytes() - b.totalBytes()) / plan.configurations();
      System.out.printf(Locale.ROOT, "member %s: live heap %.1f -> %.1f MiB, %.0f bytes per configuration; largest growth:%n",
          members.node(n), b.totalBytes() / 1048576.0, a.totalBytes() / 1048576.0, perConfig);
      a.growthOver(b).stream().limit(10).forEach(g ->
          System.out.printf(Locale.ROOT, "  %8.1f  %s%n", (double) g.bytes() / plan.configurations(), g.className()));
      figures.add("heap per configuration (" + plan.contentBytes() + " B content), member " + (n + 1) + ", bytes",
          "%.0f", perConfig);
    }
  }

  /** The restarts, once no client of the bench is connected (a killed member's clients only log reconnections). */
  void restarts() throws Exception {
    Map<String, String> expected = new HashMap<>();
    for (int i = 0; i < plan.configurations(); i++) {
      expected.put(dataId(i), Contents.md5(content(i)));
    }
    for (int r = 1; r <= plan.restarts(); r++) {
      restart(r, expected);
    }
  }

  private void restart(int round, Map<String, String> expected) throws Exception {
    String node = members.node(members.nodes().size() - 1);
    long start = System.nanoTime();
    Process p = new ProcessBuilder("bash", "-c", plan.restartCommand()).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    if (!p.waitFor(3, java.util.concurrent.TimeUnit.MINUTES) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IllegalStateException("restart command failed or timed out: " + plan.restartCommand());
    }
    double toReady = (System.nanoTime() - start) / 1e9;
    long atReady = members.configurations(node);
    long sweepStart = System.nanoTime();
    Map<String, String> served = members.md5s(node, group);
    double sweep = (System.nanoTime() - sweepStart) / 1e9;
    int wrong = 0;
    for (Map.Entry<String, String> e : expected.entrySet()) {
      wrong += e.getValue().equals(served.get(e.getKey())) ? 0 : 1;
    }
    System.out.printf(Locale.ROOT, "restart %d of %s: ready %.2f s after kill -9 began; it then counted %d configurations; "
            + "read all back in %.2f s: %d served, %d missing or with another md5%n",
        round, node, toReady, atReady, sweep, served.size(), wrong);
    figures.add("restart (kill -9, start) to ready with " + plan.configurations() + " configurations, s", "%.2f",
        Figures.Target.atMost(3, "< 3 s (naming's)"), toReady);
    figures.add("restarted member: configurations counted when ready", "%.0f", atReady);
    figures.add("restarted member: configurations missing or md5 differing, read from ready on", "%.0f",
        Figures.Target.atMost(0, "0"), wrong);
    figures.add("restarted member: seconds to read all back (v1 search, pages of 500)", "%.2f", sweep);
  }

  private List<Histogram> histograms() throws Exception {
    List<Histogram> out = new ArrayList<>();
    for (long pid : members.pids()) {
      out.add(Histogram.of(pid));
    }
    return out;
  }
}
