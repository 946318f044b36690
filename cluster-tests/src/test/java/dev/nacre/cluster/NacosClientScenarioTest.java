package dev.nacre.cluster;

import static dev.nacre.cluster.NacosClients.instance;

import com.alibaba.nacos.api.exception.NacosException;
import com.alibaba.nacos.api.naming.NamingService;
import com.alibaba.nacos.api.naming.listener.Event;
import com.alibaba.nacos.api.naming.listener.EventListener;
import com.alibaba.nacos.api.naming.listener.NamingEvent;
import dev.nacre.cluster.check.ConvergenceChecker;
import dev.nacre.cluster.check.InstanceKey;
import dev.nacre.node.Node;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node crashes under official Nacos 2.x clients (issue #4: the scenarios driven by the Nacos
 * client): each client knows the whole cluster, registers one ephemeral instance and subscribes to
 * every service; the node holding the most client connections stops without a word (no
 * ConnectResetRequest). Its clients must notice, move to a survivor and register again before or
 * soon after the survivors drop the dead node's copies; the survivors' views converge; every
 * listener ends on the final list and hears a newcomer's instances (its subscription survived the
 * move); and a client that shuts down later leaves every node and every listener. docs/FAULTS.md.
 */
@Tag("scenario")
@Tag("quick")
@Timeout(240)
class NacosClientScenarioTest {
  private static final int CLIENTS = 6;
  private static final int FIRST_PORT = 7101;
  private static final int JOINER_PORT = 7201;
  private static final List<String> SERVICES = List.of("nc-crash-a", "nc-crash-b", "nc-crash-c");
  /**
   * From the crash until every instance is owned by a survivor's client connection and present on
   * every survivor: the client's health check (a few seconds) and reconnection, slack for 2 shared cores.
   */
  static final Duration MOVE_BOUND = Duration.ofSeconds(30);
  /** Longest an instance of a live client may be absent from a survivor (between grace end and re-register). */
  static final Duration MISSING_BOUND = Duration.ofSeconds(20);
  /**
   * Sampling after the crash lasts at least this long, so that the end of the dead node's grace
   * (detection by pings, then 3 s in the harness) is seen: a client that did not come back loses its instance.
   */
  static final Duration OBSERVE_AT_LEAST = Duration.ofSeconds(8);
  /** A listener's last list equals the registry within this after the views settled. */
  static final Duration PUSH_BOUND = Duration.ofSeconds(20);
  /** Survivors' views equal (and holding every instance) within this after every client was back. */
  static final Duration CONVERGENCE = ApScenarioTest.CONVERGENCE;
  /** A shut-down client's instance leaves every node: connection close, Distro batch, slack. */
  static final Duration GONE_BOUND = Duration.ofSeconds(10);

  @TempDir Path dir;

  /** What a listener heard: each NamingEvent's sorted {@code ip:port} list, and when the last arrived. */
  static final class Heard implements EventListener {
    private final List<List<String>> lists = new ArrayList<>();
    private long lastAtNanos;

    @Override
    public synchronized void onEvent(Event event) {
      if (event instanceof NamingEvent e) {
        lists.add(NacosClients.addresses(e.getInstances()));
        lastAtNanos = System.nanoTime();
      }
    }

    synchronized List<String> last() {
      return lists.isEmpty() ? List.of() : lists.get(lists.size() - 1);
    }

    /** When the last event arrived (System.nanoTime), empty before the first. */
    synchronized java.util.OptionalLong lastAtNanos() {
      return lists.isEmpty() ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(lastAtNanos);
    }
  }

  /** One client: its naming service, its instance, and a listener per service. */
  private record Client(int index, NamingService naming, InstanceKey key,
      Map<String, Heard> heard) {}

  @Test
  void nodeCrashUnderNacosClients() throws Exception {
    try (Scenario s = Scenario.builder("nacos-client-crash").start(dir); NacosClients nacos = new NacosClients()) {
      String[] servers = s.all().stream().map(s.cluster()::address).toArray(String[]::new);
      List<Client> clients = new ArrayList<>();
      Map<InstanceKey, String> expected = new TreeMap<>();
      for (int c = 0; c < CLIENTS; c++) {
        NamingService ns = nacos.connect(servers);
        Map<String, Heard> heard = new TreeMap<>();
        for (String service : SERVICES) {
          Heard r = new Heard();
          ns.subscribe(service, r);
          heard.put(service, r);
        }
        String service = SERVICES.get(c % SERVICES.size());
        int port = FIRST_PORT + c;
        String value = "client-" + c;
        ns.registerInstance(service, instance(port, null, 1.0, Map.of(WorkloadClient.VALUE_KEY, value)));
        InstanceKey key = InstanceKey.of(service, "127.0.0.1:" + port);
        expected.put(key, value);
        clients.add(new Client(c, ns, key, heard));
      }
      Polling.until("every client's instance on every node", Duration.ofSeconds(20),
          () -> s.all().stream().allMatch(i -> ApConvergence.view(s.cluster(), i, SERVICES).equals(expected)), s::dump);
      awaitListeners(s, clients, expected, Duration.ofSeconds(20), "before the crash");

      Map<Integer, Integer> connections = new TreeMap<>();
      for (int i : s.all()) {
        connections.put(i, s.cluster().node(i).clientConnections().registeredIds().size());
      }
      // The lowest index among the busiest: the clients choose their node at random, the victim does not.
      int victim = connections.entrySet().stream().max(Map.Entry.<Integer, Integer>comparingByValue()
          .thenComparing(Map.Entry.comparingByKey(java.util.Comparator.reverseOrder()))).orElseThrow().getKey();
      List<Integer> survivors = s.allBut(List.of(victim));
      s.note("client connections per node %s; node %d (%s) crashes", connections, victim, s.cluster().address(victim));

      // A crash: clients and peers stop hearing from it, then it stops; no ConnectResetRequest.
      s.cluster().isolateFromClients(victim);
      s.cluster().isolate(victim);
      long crashed = System.nanoTime();
      s.kill(victim);
      s.cluster().faults().heal();
      s.cluster().healClients(victim);

      Moved moved = sampleAfterCrash(s, survivors, expected, crashed);
      s.expect("moved", moved.allBackMs >= 0 && moved.allBackMs <= MOVE_BOUND.toMillis(), moved.allBackMs < 0
          ? "not every instance owned by a survivor's connection and present on every survivor within "
              + MOVE_BOUND.toMillis() + " ms; owned " + moved.owned + ", missing now " + moved.missingAtEnd
          : "every instance owned by a survivor's client connection and on every survivor " + moved.allBackMs
              + " ms after the crash (bound " + MOVE_BOUND.toMillis() + " ms)");
      s.expect("missing-bounded", moved.longestMissingMs <= MISSING_BOUND.toMillis(),
          "longest absence of a live client's instance from a survivor " + moved.longestMissingMs + " ms ("
              + moved.longestMissing + "; bound " + MISSING_BOUND.toMillis() + " ms, " + moved.samples + " samples)");
      s.note("instances back everywhere %d ms after the crash; longest absence %d ms (%s)",
          moved.allBackMs, moved.longestMissingMs, moved.longestMissing);

      // The crash is permanent; the fault ends for the survivors once every client is back.
      long back = moved.allBackMs < 0 ? crashed : crashed + TimeUnit.MILLISECONDS.toNanos(moved.allBackMs);
      ConvergenceChecker.Result converged = new ConvergenceChecker(CONVERGENCE)
          .check(back, s.cluster().addresses(survivors), moved.views, expected.keySet());
      s.check("convergence", converged.verdict(), converged.report());
      converged.afterHeal().ifPresent(d -> s.note("survivors' views equal %d ms after every client was back",
          d.toMillis()));
      Map<InstanceKey, String> finalView = ApConvergence.view(s.cluster(), survivors.get(0), SERVICES);
      s.expect("final-view", finalView.equals(expected), "survivor view " + finalView + ", registered " + expected);
      expectListeners(s, "listeners-after-crash", clients, finalView, PUSH_BOUND, crashed, "the crash");

      // A list that does not change is not pushed: a newcomer registers in every service, so that
      // every listener, the moved clients' too, must hear a push through its surviving subscription.
      NamingService joiner = nacos.connect(survivors.stream().map(s.cluster()::address).toArray(String[]::new));
      long joined = System.nanoTime();
      Map<InstanceKey, String> withJoiner = new TreeMap<>(expected);
      for (int k = 0; k < SERVICES.size(); k++) {
        joiner.registerInstance(SERVICES.get(k), instance(JOINER_PORT + k, null, 1.0,
            Map.of(WorkloadClient.VALUE_KEY, "joiner")));
        withJoiner.put(InstanceKey.of(SERVICES.get(k), "127.0.0.1:" + (JOINER_PORT + k)), "joiner");
      }
      var joinedEverywhere = Polling.poll(CONVERGENCE, () -> survivors.stream().allMatch(i ->
          ApConvergence.view(s.cluster(), i, SERVICES).equals(withJoiner))
          ? java.util.Optional.of(System.nanoTime()) : java.util.Optional.empty());
      s.expect("joined", joinedEverywhere.isPresent(), "the newcomer's " + SERVICES.size() + " instances "
          + (joinedEverywhere.isPresent() ? "on every survivor " + TimeUnit.NANOSECONDS.toMillis(
              joinedEverywhere.get() - joined) + " ms after registering" : "not on every survivor within "
              + CONVERGENCE.toMillis() + " ms"));
      expectListeners(s, "listeners-moved", clients, withJoiner, PUSH_BOUND, joined, "the newcomer registered");

      // One client leaves cleanly: its connection closes, its instance must leave every survivor.
      Client leaving = clients.get(s.random().nextInt(CLIENTS));
      List<Client> staying = clients.stream().filter(c -> c != leaving).toList();
      Map<InstanceKey, String> remaining = new TreeMap<>(withJoiner);
      remaining.remove(leaving.key());
      try {
        leaving.naming().shutDown();
      } catch (NacosException e) {
        s.expect("shutdown", false, "client " + leaving.index() + " shutDown: " + e);
      }
      long closed = System.nanoTime();
      var gone = Polling.poll(GONE_BOUND, () -> survivors.stream().allMatch(i ->
          ApConvergence.view(s.cluster(), i, SERVICES).equals(remaining))
          ? java.util.Optional.of(System.nanoTime()) : java.util.Optional.empty());
      long goneMs = gone.map(t -> TimeUnit.NANOSECONDS.toMillis(t - closed)).orElse(-1L);
      Map<String, Map<InstanceKey, String>> views = new TreeMap<>();
      survivors.forEach(i -> views.put(s.cluster().address(i), ApConvergence.view(s.cluster(), i, SERVICES)));
      s.expect("shutdown-gone", gone.isPresent(), gone.isPresent()
          ? "client " + leaving.index() + "'s " + leaving.key() + " gone from every survivor " + goneMs
              + " ms after shutDown (bound " + GONE_BOUND.toMillis() + " ms), the others kept"
          : "after " + GONE_BOUND.toMillis() + " ms survivors' views " + views + ", expected " + remaining);
      s.note("shut-down client's instance gone from every survivor %d ms after shutDown", goneMs);
      expectListeners(s, "listeners-heard-leave", staying, remaining, PUSH_BOUND, closed, "shutDown");
      s.finish();
    }
  }

  /** What the survivors showed after the crash. */
  private record Moved(long allBackMs, long longestMissingMs, String longestMissing, Set<InstanceKey> owned,
      Set<String> missingAtEnd, int samples, List<ConvergenceChecker.Sample> views) {}

  /**
   * Samples every survivor's view in process every 20 ms from the crash until every instance is
   * owned by a survivor's client connection and present on every survivor, and at least
   * {@link #OBSERVE_AT_LEAST} passed and the views stayed equal for {@link ApConvergence#STABLE} (or
   * {@link #MOVE_BOUND} plus that passed); measures every absence and keeps the views for the
   * {@link ConvergenceChecker}.
   */
  private static Moved sampleAfterCrash(Scenario s, List<Integer> survivors, Map<InstanceKey, String> expected,
      long crashed) {
    Map<String, Long> absentSince = new TreeMap<>();
    long longest = 0;
    String longestWhat = "none";
    long allBack = -1;
    int samples = 0;
    Set<InstanceKey> owned = Set.of();
    Set<String> missing = Set.of();
    List<ConvergenceChecker.Sample> views = new ArrayList<>();
    long equalSince = -1;
    long deadline = crashed + MOVE_BOUND.toNanos() + ApConvergence.STABLE.toNanos();
    while (true) {
      long now = System.nanoTime();
      samples++;
      missing = new TreeSet<>();
      Set<Map<InstanceKey, String>> distinct = new HashSet<>();
      for (int i : survivors) {
        Map<InstanceKey, String> view = ApConvergence.view(s.cluster(), i, SERVICES);
        views.add(new ConvergenceChecker.Sample(s.cluster().address(i), now, view));
        distinct.add(view);
        for (InstanceKey k : expected.keySet()) {
          String what = "node " + i + " " + k;
          if (!expected.get(k).equals(view.get(k))) {
            missing.add(what);
            absentSince.putIfAbsent(what, now);
          } else {
            Long since = absentSince.remove(what);
            if (since != null && now - since > longest) {
              longest = now - since;
              longestWhat = what;
            }
          }
        }
      }
      owned = ownedBySurvivors(s, survivors);
      if (allBack < 0 && missing.isEmpty() && owned.containsAll(expected.keySet())) {
        allBack = now;
      }
      equalSince = distinct.size() == 1 ? (equalSince < 0 ? now : equalSince) : -1;
      boolean observed = now - crashed >= OBSERVE_AT_LEAST.toNanos();
      boolean stable = equalSince >= 0 && now - equalSince >= ApConvergence.STABLE.toNanos();
      if (allBack >= 0 && observed && stable || now - deadline > 0) {
        for (Map.Entry<String, Long> open : absentSince.entrySet()) {
          if (now - open.getValue() > longest) {
            longest = now - open.getValue();
            longestWhat = open.getKey() + " (still missing)";
          }
        }
        break;
      }
      LockSupport.parkNanos(Polling.INTERVAL.toNanos());
      if (Thread.interrupted()) {
        throw new IllegalStateException("interrupted while sampling survivors' views");
      }
    }
    return new Moved(allBack < 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(allBack - crashed),
        TimeUnit.NANOSECONDS.toMillis(longest), longestWhat, owned, missing, samples, views);
  }

  /** The instances that some survivor holds for one of its live client connections. */
  private static Set<InstanceKey> ownedBySurvivors(Scenario s, List<Integer> survivors) {
    Set<InstanceKey> out = new HashSet<>();
    for (int i : survivors) {
      Node node = s.cluster().node(i);
      for (String id : node.clientConnections().registeredIds()) {
        for (var k : node.naming().clientInstances(id)) {
          out.add(InstanceKey.of(k.service().name(), k.ip() + ":" + k.port()));
        }
      }
    }
    return out;
  }

  /** Sorted {@code ip:port} of the instances of {@code service} in {@code view}. */
  private static List<String> addressesOf(Map<InstanceKey, String> view, String service) {
    return view.keySet().stream().filter(k -> k.service().equals(service)).map(InstanceKey::instance).sorted().toList();
  }

  /** Polls until every listener's last list is the view's list of its service; a check named {@code check}. */
  private static void expectListeners(Scenario s, String check, List<Client> clients, Map<InstanceKey, String> view,
      Duration bound, long sinceNanos, String since) {
    long start = System.nanoTime();
    var done = Polling.poll(bound, () -> stale(clients, view).isEmpty()
        ? java.util.Optional.of(System.nanoTime()) : java.util.Optional.empty());
    List<String> stale = stale(clients, view);
    long ms = TimeUnit.NANOSECONDS.toMillis(done.orElse(System.nanoTime()) - start);
    // The latest push any listener got since the fault: when the last of them had the final list.
    long lastPush = clients.stream().flatMap(c -> c.heard().values().stream())
        .map(Heard::lastAtNanos).filter(java.util.OptionalLong::isPresent).mapToLong(java.util.OptionalLong::getAsLong)
        .filter(t -> t - sinceNanos > 0).max().orElse(sinceNanos);
    s.expect(check, done.isPresent(), done.isPresent()
        ? clients.size() * SERVICES.size() + " listeners on the final lists within " + ms + " ms (bound "
            + bound.toMillis() + " ms)"
        : "after " + bound.toMillis() + " ms stale listeners: " + stale);
    s.note("%s: every listener's last push equals the registry %d ms after the views settled; the latest push"
        + " arrived %d ms after %s", check, ms, TimeUnit.NANOSECONDS.toMillis(lastPush - sinceNanos), since);
  }

  private static void awaitListeners(Scenario s, List<Client> clients, Map<InstanceKey, String> view,
      Duration atMost, String when) {
    Polling.until("every listener on the registry's lists " + when, atMost,
        () -> stale(clients, view).isEmpty(), () -> "stale: " + stale(clients, view) + "\n" + s.dump());
  }

  /** "client c service: heard [..], registry [..]" for each listener whose last list differs. */
  private static List<String> stale(List<Client> clients, Map<InstanceKey, String> view) {
    List<String> out = new ArrayList<>();
    for (Client c : clients) {
      for (String service : SERVICES) {
        List<String> want = addressesOf(view, service);
        List<String> last = c.heard().get(service).last();
        if (!last.equals(want)) {
          out.add("client " + c.index() + " " + service + ": heard " + last + ", registry " + want);
        }
      }
    }
    return out;
  }
}
