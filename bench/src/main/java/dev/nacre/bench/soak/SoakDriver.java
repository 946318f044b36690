package dev.nacre.bench.soak;

import com.alibaba.nacos.api.PropertyKeyConst;
import com.alibaba.nacos.api.exception.NacosException;
import com.alibaba.nacos.api.naming.NamingFactory;
import com.alibaba.nacos.api.naming.NamingService;
import com.alibaba.nacos.api.naming.pojo.Instance;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The soak's load (scripts/soak.sh): official nacos-client 2.5.1 clients, each knowing every node,
 * register and deregister ephemeral and persistent instances at a bounded rate for a bounded time
 * while the script restarts nodes; then every node's list of every service touched must equal
 * what the clients hold, within a bound. Prints one progress line a minute and the verdict; exits
 * 1 when a view is wrong or a persistent write never succeeded. Its own lines start with
 * {@code soak: } (the official client logs to the same output).
 *
 * <p>The registry reaches a steady size (each client keeps at most one ephemeral instance per
 * service and {@code --persistent-per-client} persistent ones), so what grows is a leak, not data.
 *
 * <p>What the clients hold: an ephemeral call that fails still happens (the client's redo
 * registers or removes it once connected again); a persistent call is retried until it succeeds
 * (register and deregister are idempotent), up to a bound.
 */
@Command(name = "soak-driver", mixinStandardHelpOptions = true)
public final class SoakDriver implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Option(names = "--nodes", required = true, split = ",", description = "host:port of every node")
  List<String> nodes;
  @Option(names = "--seconds", defaultValue = "3600", description = "how long the churn runs")
  int seconds;
  @Option(names = "--clients", defaultValue = "6")
  int clients;
  @Option(names = "--rate", defaultValue = "40", description = "operations a second, all clients together")
  int rate;
  @Option(names = "--services", defaultValue = "20", description = "ephemeral services per client, and persistent services")
  int services;
  @Option(names = "--persistent-per-client", defaultValue = "100",
      description = "persistent instances a client holds at most: past it, it removes one instead of adding")
  int persistentPerClient;
  @Option(names = "--settle-seconds", defaultValue = "90", description = "bound for the final views to match")
  int settleSeconds;
  @Option(names = "--seed", defaultValue = "20261201")
  long seed;

  /** Per service, the ip:port the clients hold now. */
  private final Map<String, Set<String>> truth = new ConcurrentHashMap<>();
  private final AtomicLong operations = new AtomicLong();
  private final AtomicLong callFailures = new AtomicLong();
  private final AtomicLong lostPersistent = new AtomicLong();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  public static void main(String[] args) {
    System.exit(new CommandLine(new SoakDriver()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
    List<Thread> threads = new ArrayList<>();
    List<NamingService> namings = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      Properties p = new Properties();
      p.setProperty(PropertyKeyConst.SERVER_ADDR, String.join(",", nodes));
      p.setProperty(PropertyKeyConst.NAMING_LOAD_CACHE_AT_START, "false");
      NamingService naming = NamingFactory.createNamingService(p);
      namings.add(naming);
      int client = c;
      Thread t = new Thread(() -> churn(client, naming, end), "soak-client-" + c);
      t.start();
      threads.add(t);
    }
    Thread progress = new Thread(() -> progress(end), "soak-progress");
    progress.setDaemon(true);
    progress.start();
    for (Thread t : threads) {
      t.join();
    }
    System.out.printf("soak: churn done: %d operations, %d failed calls (retried or redone), %d persistent writes"
        + " never acknowledged%n", operations.get(), callFailures.get(), lostPersistent.get());
    boolean exact = settle();
    for (NamingService n : namings) {
      n.shutDown();
    }
    return exact && lostPersistent.get() == 0 ? 0 : 1;
  }

  /** One client: at most one ephemeral instance per service (the client keeps one per service). */
  private void churn(int client, NamingService naming, long endNanos) {
    Random random = new Random(seed + client);
    long periodNanos = Duration.ofSeconds(1).toNanos() * clients / rate;
    Map<String, Integer> ephemeral = new TreeMap<>();
    List<String[]> persistent = new ArrayList<>(); // {service, ip, port}
    String ip = "127.0." + (client / 250) + "." + (client % 250 + 1);
    long next = System.nanoTime();
    while (System.nanoTime() < endNanos) {
      next += periodNanos;
      long wait = next - System.nanoTime();
      if (wait > 0) {
        sleepNanos(wait);
      }
      int dice = random.nextInt(100);
      if (dice < 40) {
        String service = "soak-e-" + client + "-" + random.nextInt(services);
        int port = 1 + random.nextInt(60000);
        Integer previous = ephemeral.put(service, port);
        update(service, previous == null ? null : ip + ":" + previous, ip + ":" + port);
        ephemeralCall(() -> naming.registerInstance(service, instance(ip, port, true)));
      } else if (dice < 60 && !ephemeral.isEmpty()) {
        String service = new ArrayList<>(ephemeral.keySet()).get(random.nextInt(ephemeral.size()));
        int port = ephemeral.remove(service);
        update(service, ip + ":" + port, null);
        ephemeralCall(() -> naming.deregisterInstance(service, instance(ip, port, true)));
      } else if (dice < 85 && persistent.size() < persistentPerClient) {
        String service = "soak-p-" + random.nextInt(services);
        int port = 1 + random.nextInt(60000);
        if (persistentCall(() -> naming.registerInstance(service, instance(ip, port, false)), endNanos)) {
          persistent.add(new String[] {service, ip, String.valueOf(port)});
          update(service, null, ip + ":" + port);
        }
      } else if (!persistent.isEmpty()) {
        String[] victim = persistent.remove(random.nextInt(persistent.size()));
        int port = Integer.parseInt(victim[2]);
        if (persistentCall(() -> naming.deregisterInstance(victim[0], instance(ip, port, false)), endNanos)) {
          update(victim[0], ip + ":" + port, null);
        } else {
          persistent.add(victim);
        }
      }
      operations.incrementAndGet();
    }
  }

  private void update(String service, String removed, String added) {
    truth.compute(service, (s, held) -> {
      Set<String> next = held == null ? new HashSet<>() : new HashSet<>(held);
      if (removed != null) {
        next.remove(removed);
      }
      if (added != null) {
        next.add(added);
      }
      return next;
    });
  }

  private interface Call {
    void run() throws NacosException;
  }

  private void ephemeralCall(Call call) {
    try {
      call.run();
    } catch (NacosException | RuntimeException e) {
      callFailures.incrementAndGet(); // the client's redo does it once connected again
    }
  }

  /** Retries an idempotent persistent write for up to 60 s; false when it never succeeded. */
  private boolean persistentCall(Call call, long endNanos) {
    long giveUp = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < giveUp) {
      try {
        call.run();
        return true;
      } catch (NacosException | RuntimeException e) {
        callFailures.incrementAndGet();
        sleepNanos(Duration.ofMillis(500).toNanos());
      }
    }
    lostPersistent.incrementAndGet();
    System.out.println("soak: a persistent write failed for 60 s; its instance is left out of the check");
    return false;
  }

  private void progress(long endNanos) {
    long started = System.nanoTime();
    while (System.nanoTime() < endNanos) {
      sleepNanos(Duration.ofSeconds(60).toNanos());
      System.out.printf("soak: minute %d: %d operations, %d failed calls, %d instances held%n",
          Duration.ofNanos(System.nanoTime() - started).toMinutes(), operations.get(), callFailures.get(),
          truth.values().stream().mapToInt(Set::size).sum());
    }
  }

  /** Polls every node until each lists exactly the truth for every service, or the bound passes. */
  private boolean settle() throws InterruptedException {
    long start = System.nanoTime();
    long giveUp = start + Duration.ofSeconds(settleSeconds).toNanos();
    Map<String, String> lastDifference = new TreeMap<>();
    while (true) {
      lastDifference.clear();
      for (String node : nodes) {
        for (Map.Entry<String, Set<String>> e : new TreeMap<>(truth).entrySet()) {
          Set<String> listed = list(node, e.getKey());
          if (!new TreeSet<>(e.getValue()).equals(listed)) {
            lastDifference.put(node + " " + e.getKey(), "holds " + new TreeSet<>(e.getValue()) + ", lists " + listed);
          }
        }
      }
      if (lastDifference.isEmpty()) {
        System.out.printf("soak: final views exact: %d nodes list the %d instances of %d services as the clients hold"
            + " them, %d ms after the churn stopped%n", nodes.size(), truth.values().stream().mapToInt(Set::size).sum(),
            truth.size(), Duration.ofNanos(System.nanoTime() - start).toMillis());
        return true;
      }
      if (System.nanoTime() > giveUp) {
        System.out.println("soak: final views WRONG after " + settleSeconds + " s; " + lastDifference.size() + " differ, e.g.:");
        lastDifference.entrySet().stream().limit(10).forEach(e -> System.out.println("soak:   " + e.getKey() + ": " + e.getValue()));
        return false;
      }
      Thread.sleep(1000);
    }
  }

  private Set<String> list(String node, String service) {
    URI uri = URI.create("http://" + node + "/nacos/v1/ns/instance/list?healthyOnly=false&serviceName="
        + URLEncoder.encode(service, StandardCharsets.UTF_8));
    try {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      Set<String> listed = new TreeSet<>();
      if (r.statusCode() != 200) {
        listed.add("HTTP " + r.statusCode());
        return listed;
      }
      for (JsonNode host : JSON.readTree(r.body()).path("hosts")) {
        listed.add(host.path("ip").asText() + ":" + host.path("port").asInt());
      }
      return listed;
    } catch (Exception e) {
      return Set.of("unreachable: " + e);
    }
  }

  private static Instance instance(String ip, int port, boolean ephemeral) {
    Instance i = new Instance();
    i.setIp(ip);
    i.setPort(port);
    i.setEphemeral(ephemeral);
    return i;
  }

  private static void sleepNanos(long nanos) {
    try {
      Thread.sleep(Math.max(1, nanos / 1_000_000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
