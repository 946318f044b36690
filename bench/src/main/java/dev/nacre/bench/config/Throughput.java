package dev.nacre.bench.config;

import com.alibaba.nacos.api.naming.pojo.Instance;
import com.alibaba.nacos.api.common.Constants;
import com.alibaba.nacos.common.utils.JacksonUtils;
import dev.nacre.bench.peer.LoadRunner;
import dev.nacre.bench.peer.NacosHttpDriver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Figures 1 and 2, each side of a pair in the same round and the order alternated from round to
 * round (on this machine the first of a pair tends to be the faster): configuration reads against
 * instance queries of about the same answer size, and publishes against persistent registrations.
 * A warm-up round first, unrecorded. Every series is bounded in count and in time.
 */
final class Throughput {
  private static final Duration SERIES_LIMIT = Duration.ofMinutes(3);
  private static final Duration GUARD_LIMIT = Duration.ofSeconds(20);
  private static final int READ_SET = 16;

  /** Sizes: reads and queries per round, publishes and registrations per round, content bytes, instances per queried service. */
  record Plan(int reads, int writes, int contentBytes, int perService, int rounds) {}

  private record Write(int client, int j) {}

  private final String prefix;
  private final LoadRunner<Client> runner;
  private final Members members;
  private final Plan plan;
  private final Figures figures;
  private final String group;

  Throughput(String prefix, LoadRunner<Client> runner, Members members, Plan plan, Figures figures) {
    this.prefix = prefix;
    this.runner = runner;
    this.members = members;
    this.plan = plan;
    this.figures = figures;
    this.group = prefix + "-g";
  }

  void run() throws Exception {
    loadReadSets();
    for (int round = 0; round <= plan.rounds(); round++) {
      System.out.printf("== reads and writes, round %d%s, %s%n", round, round == 0 ? " (warm-up, not recorded)" : "",
          java.time.LocalTime.now().withNano(0));
      boolean configFirst = round % 2 == 1;
      pair(round, configFirst, "config reads", this::configReads, "instance queries", this::instanceQueries,
          "reads", Figures.Target.atLeast(1, ">= 1x"));
      pair(round, !configFirst, "publishes", r -> publishes(r), "persistent registrations", r -> registrations(r),
          "publishes", Figures.Target.atLeast(1, ">= 1x"));
    }
  }

  private interface Series {
    LoadRunner.Outcome<?> run(int round) throws Exception;
  }

  private void pair(int round, boolean configFirst, String configName, Series config, String namingName, Series naming,
      String ratioName, Figures.Target target) throws Exception {
    LoadRunner.Outcome<?> c;
    LoadRunner.Outcome<?> n;
    if (configFirst) {
      c = config.run(round);
      n = naming.run(round);
    } else {
      n = naming.run(round);
      c = config.run(round);
    }
    print(configName, c);
    print(namingName, n);
    if (round == 0) {
      return;
    }
    record(configName, c);
    record(namingName, n);
    figures.add(ratioName + ": config ÷ naming rate, same round", "%.2fx", target, rate(c) / rate(n));
  }

  private void record(String name, LoadRunner.Outcome<?> o) {
    figures.add(name + " /s", "%.0f", rate(o));
    figures.add(name + " p50 ms", "%.2f", o.latencyMicros().getValueAtPercentile(50) / 1000.0);
    figures.add(name + " p99 ms", "%.2f", o.latencyMicros().getValueAtPercentile(99) / 1000.0);
    figures.add(name + " server CPU ms / op", "%.3f", o.ops() == 0 ? Double.NaN : o.cpuSeconds() * 1000 / o.ops());
    figures.add(name + " failed", "%.0f", o.errors());
  }

  private static double rate(LoadRunner.Outcome<?> o) {
    return o.ops() / o.seconds();
  }

  private static void print(String name, LoadRunner.Outcome<?> o) {
    System.out.printf(Locale.ROOT, "  %-26s %6d ops %3d failed %8.1f/s p50 %6.2f ms p99 %6.2f ms, server CPU %.3f ms/op%n",
        name, o.ops(), o.errors(), rate(o), o.latencyMicros().getValueAtPercentile(50) / 1000.0,
        o.latencyMicros().getValueAtPercentile(99) / 1000.0, o.ops() == 0 ? Double.NaN : o.cpuSeconds() * 1000 / o.ops());
  }

  // --- the read sets: READ_SET configurations, READ_SET services of perService ephemeral instances ---

  private String readDataId(int s) {
    return prefix + "-r" + s;
  }

  private String readService(int s) {
    return prefix + "-q" + s;
  }

  private String readContent(int s) {
    return Contents.of("read-" + s + "\n", s, plan.contentBytes());
  }

  private void loadReadSets() throws Exception {
    for (int s = 0; s < READ_SET; s++) {
      Client c = runner.driver(s % runner.clients());
      if (!c.config().publishConfig(readDataId(s), group, readContent(s))) {
        throw new IllegalStateException("publishing read-set configuration " + s + " was refused");
      }
      List<Instance> batch = new ArrayList<>();
      for (int i = 0; i < plan.perService(); i++) {
        batch.add(instance("127.79." + s + "." + (i + 1), 20000 + i, true));
      }
      // Ephemeral instances belong to the connection: one client batch-registers each service.
      c.naming().batchRegisterInstance(readService(s), Constants.DEFAULT_GROUP, batch);
    }
    // Every member must answer the whole read set before reads are timed.
    for (int s = 0; s < READ_SET; s++) {
      for (int c = 0; c < runner.clients(); c++) {
        awaitReadable(runner.driver(c), s);
      }
    }
    String configAnswer = readContent(0);
    String instancesAnswer = JacksonUtils.toJson(runner.driver(0).naming().getAllInstances(readService(0), false));
    System.out.printf("read set: %d configurations of %d bytes; %d services of %d instances, %d bytes as JSON%n",
        READ_SET, configAnswer.length(), READ_SET, plan.perService(), instancesAnswer.length());
    figures.add("read set: bytes of one configuration's content", "%.0f", configAnswer.length());
    figures.add("read set: bytes of one service's instances as JSON", "%.0f", instancesAnswer.length());
  }

  private void awaitReadable(Client c, int s) throws Exception {
    long deadline = System.nanoTime() + GUARD_LIMIT.toNanos();
    while (!readContent(s).equals(c.config().getConfig(readDataId(s), group, 3000))
        || c.naming().getAllInstances(readService(s), false).size() != plan.perService()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("read set item " + s + " not served everywhere after " + GUARD_LIMIT.toSeconds() + " s");
      }
      Thread.sleep(50); // polls a condition with a deadline
    }
  }

  private List<List<Integer>> readWork() {
    List<List<Integer>> work = new ArrayList<>();
    int perClient = plan.reads() / runner.clients();
    for (int c = 0; c < runner.clients(); c++) {
      List<Integer> mine = new ArrayList<>(perClient);
      for (int n = 0; n < perClient; n++) {
        mine.add((c + n * 7) % READ_SET);
      }
      work.add(mine);
    }
    return work;
  }

  private LoadRunner.Outcome<Integer> configReads(int round) throws Exception {
    String[] expected = new String[READ_SET];
    for (int s = 0; s < READ_SET; s++) {
      expected[s] = readContent(s);
    }
    return runner.counted("config-read", readWork(), (c, s) -> {
      String content = c.config().getConfig(readDataId(s), group, 3000);
      if (!expected[s].equals(content)) {
        throw new IllegalStateException("configuration " + readDataId(s) + " read back different content");
      }
    }, SERIES_LIMIT);
  }

  private LoadRunner.Outcome<Integer> instanceQueries(int round) throws Exception {
    return runner.counted("instance-query", readWork(), (c, s) -> {
      int listed = c.naming().getAllInstances(readService(s), false).size();
      if (listed != plan.perService()) {
        throw new IllegalStateException(readService(s) + " listed " + listed + " instances, not " + plan.perService());
      }
    }, SERIES_LIMIT);
  }

  // --- writes: client c's j-th publish to its own dataId, its j-th registration to service p-s<j> ---

  private List<List<Write>> writeWork() {
    List<List<Write>> work = new ArrayList<>();
    for (int c = 0; c < runner.clients(); c++) {
      List<Write> mine = new ArrayList<>();
      for (int j = 0; c + j * runner.clients() < plan.writes(); j++) {
        mine.add(new Write(c, j));
      }
      work.add(mine);
    }
    return work;
  }

  private String writeDataId(Write w) {
    return prefix + "-w-c" + w.client() + "-" + w.j();
  }

  /** Publishes of new configurations (each round removes them again, unmeasured), checked on every member. */
  private LoadRunner.Outcome<Write> publishes(int round) throws Exception {
    List<Long> before = members.each(members::configurations);
    LoadRunner.Outcome<Write> done = runner.counted("publish", writeWork(), (c, w) -> {
      String content = Contents.of("w" + round + "\n", round * 1_000_003L + w.client() * 100_000L + w.j(), plan.contentBytes());
      if (!c.config().publishConfig(writeDataId(w), group, content)) {
        throw new IllegalStateException("publish of " + writeDataId(w) + " refused");
      }
    }, SERIES_LIMIT);
    members.await("after the publishes", members::configurations, plus(before, done.ops()), GUARD_LIMIT);
    LoadRunner.Outcome<Write> removed = runner.counted("publish-cleanup", only(done.acknowledged()), (c, w) -> {
      if (!c.config().removeConfig(writeDataId(w), group)) {
        throw new IllegalStateException("removal of " + writeDataId(w) + " refused");
      }
    }, SERIES_LIMIT);
    members.await("after removing the published configurations", members::configurations,
        plus(before, done.ops() - removed.ops()), GUARD_LIMIT);
    return done;
  }

  private String registerService(Write w) {
    return prefix + "-p-s" + w.j();
  }

  private Instance persistent(Write w) {
    return instance("127.77." + w.client() + ".1", 20000 + w.j(), false);
  }

  /** Persistent registrations (health checker NONE, as the peer bench), removed again unmeasured, checked on every member. */
  private LoadRunner.Outcome<Write> registrations(int round) throws Exception {
    if (round == 0) {
      Set<String> services = new LinkedHashSet<>();
      writeWork().forEach(mine -> mine.forEach(w -> services.add(registerService(w))));
      try (NacosHttpDriver admin = new NacosHttpDriver(members.node(0))) {
        admin.prepare(services, true);
      }
    }
    List<Long> before = members.each(members::instances);
    LoadRunner.Outcome<Write> done = runner.counted("persistent-register", writeWork(),
        (c, w) -> c.naming().registerInstance(registerService(w), persistent(w)), SERIES_LIMIT);
    members.await("after the persistent registrations", members::instances, plus(before, done.ops()), GUARD_LIMIT);
    LoadRunner.Outcome<Write> removed = runner.counted("persistent-cleanup", only(done.acknowledged()),
        (c, w) -> c.naming().deregisterInstance(registerService(w), persistent(w)), SERIES_LIMIT);
    members.await("after removing the persistent instances", members::instances,
        plus(before, done.ops() - removed.ops()), GUARD_LIMIT);
    return done;
  }

  private List<List<Write>> only(List<Write> acknowledged) {
    List<List<Write>> work = new ArrayList<>();
    for (int c = 0; c < runner.clients(); c++) {
      work.add(new ArrayList<>());
    }
    acknowledged.forEach(w -> work.get(w.client()).add(w));
    return work;
  }

  private static List<Long> plus(List<Long> values, long add) {
    return values.stream().map(v -> v + add).toList();
  }

  private static Instance instance(String ip, int port, boolean ephemeral) {
    Instance i = new Instance();
    i.setIp(ip);
    i.setPort(port);
    i.setEphemeral(ephemeral);
    return i;
  }
}
