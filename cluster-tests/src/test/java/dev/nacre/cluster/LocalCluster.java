package dev.nacre.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nacre.node.Node;
import dev.nacre.node.config.MemberAddress;
import dev.nacre.node.config.NodeConfig;
import dev.nacre.node.testkit.FreePorts;
import dev.nacre.node.testkit.Http;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * N real nodes in this JVM, each with its own loopback ports and folder, sharing a fresh secret.
 * Timings are shortened (pings, Distro flush/verify/grace) so that tests run in seconds; the
 * protocol is the one that runs in production.
 */
final class LocalCluster implements AutoCloseable {
  static final String NS = "/nacos/v1/ns";
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static final List<Integer> PORT_OFFSETS = List.of(-1000, 0, 1000, 1001);
  private final Path root;
  private final List<Integer> ports = new ArrayList<>();
  /** Each node's host: 127.0.0.1 for all, or 127.0.0.(i+1) when nodes need an IP of their own. */
  private final List<String> hosts = new ArrayList<>();
  private final List<Node> nodes = new ArrayList<>();
  private final Map<String, String> settings;
  private final LinkFaults faults;
  private final Pauses pauses = new Pauses();
  private final ClientFaults clientFaults = new ClientFaults(pauses);
  private final List<AutoCloseable> raftHooks = new ArrayList<>();
  /** Node index to its nacre.members, where it differs from the cluster's (a cluster that grows). */
  private final Map<Integer, String> membersOf = new HashMap<>();

  static {
    // Ratis ends the JVM when its server cannot bind; in tests that must fail one test, not the fork.
    org.apache.ratis.util.ExitUtils.disableSystemExit();
  }

  private LocalCluster(Path root, int size, Map<String, String> overrides, boolean distinctHosts) {
    this.root = root;
    for (int i = 0; i < size; i++) {
      hosts.add(distinctHosts ? "127.0.0." + (i + 1) : "127.0.0.1");
    }
    for (int i = 0; i < size; i++) {
      int p;
      do {
        p = FreePorts.mainPort();
      } while (sharesAPort(p));
      ports.add(p);
    }
    Map<String, String> s = new HashMap<>();
    s.put(NodeConfig.BIND, "127.0.0.1");
    s.put(NodeConfig.MEMBERS, IntStream.range(0, size).mapToObj(this::address)
        .collect(Collectors.joining(",")));
    s.put(NodeConfig.SECRET, "test-secret-" + UUID.randomUUID());
    s.put(NodeConfig.PING_PERIOD, "200");
    s.put(NodeConfig.DISTRO_VERIFY, "1000");
    s.put(NodeConfig.DISTRO_GRACE, "3000");
    s.put(NodeConfig.PROBE_PERIOD, "3600000");
    // A node restarted while all others are stopped (full restarts, one by one) waits this long.
    s.put(NodeConfig.PEER_WAIT_AT_START, "2000");
    s.putAll(overrides);
    this.settings = s;
    for (int i = 0; i < size; i++) {
      nodes.add(null);
    }
    long seed = Long.getLong("nacre.faults.seed", new java.util.Random().nextLong());
    System.out.printf("LocalCluster faults seed %d (replay with -Dnacre.faults.seed=%d)%n", seed, seed);
    this.faults = new LinkFaults(seed, pauses);
    for (int i = 0; i < size; i++) {
      raftHooks.add(RaftLinkHooks.register(peerId(address(i)), address(i), faults));
    }
  }

  /**
   * True when a node on main port {@code p} would use a port (P-1000 Raft, P, P+1000 clients,
   * P+1001 peers) that a node already chosen uses: main ports 1 apart collide too (P+1001 of one
   * is P+1000 of the next), which once failed a scenario with "Address already in use".
   */
  private boolean sharesAPort(int p) {
    for (int q : ports) {
      for (int offset : PORT_OFFSETS) {
        for (int other : PORT_OFFSETS) {
          if (p + offset == q + other) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** As {@code Node.peerId}: the member address with only id-safe characters. */
  static String peerId(String address) {
    return address.replaceAll("[^A-Za-z0-9_-]", "_");
  }

  /** Starts every node at the same time, as a cluster's processes are launched together. */
  static LocalCluster start(Path root, int size, Map<String, String> overrides) {
    return start(root, size, overrides, false);
  }

  /**
   * As {@link #start}, each node on a loopback IP of its own (127.0.0.1, .2, ...): the official
   * client tells servers apart by IP alone (a move to a server of the same IP as another goes to
   * the first of them).
   */
  static LocalCluster startOnDistinctHosts(Path root, int size, Map<String, String> overrides) {
    return start(root, size, overrides, true);
  }

  /**
   * A cluster of {@code initial} running members with room for {@code capacity - initial} more:
   * the spare nodes have ports and folders but are neither started nor members until a test
   * starts them ({@link #startNode}, after {@link #setMembers}) and adds them.
   */
  static LocalCluster startGrowable(Path root, int initial, int capacity, Map<String, String> overrides) {
    LocalCluster c = new LocalCluster(root, capacity, overrides, false);
    try {
      List<Integer> first = IntStream.range(0, initial).boxed().toList();
      String members = first.stream().map(c::address).collect(Collectors.joining(","));
      first.forEach(i -> c.membersOf.put(i, members));
      NodeStarter.startTogether(c, first, c::describe);
      c.awaitSettled();
    } catch (RuntimeException e) {
      c.close();
      throw e;
    }
    return c;
  }

  /** What node i is configured with in nacre.members when it next starts. */
  void setMembers(int i, Collection<Integer> members) {
    membersOf.put(i, members.stream().map(this::address).collect(Collectors.joining(",")));
  }

  private static LocalCluster start(Path root, int size, Map<String, String> overrides, boolean distinctHosts) {
    LocalCluster c = new LocalCluster(root, size, overrides, distinctHosts);
    try {
      List<Integer> all = new ArrayList<>();
      for (int i = 0; i < size; i++) {
        all.add(i);
      }
      NodeStarter.startTogether(c, all, c::describe);
      c.awaitSettled();
    } catch (RuntimeException e) {
      c.close();
      throw e;
    }
    return c;
  }

  /**
   * Waits until every running node sees every other running node up, so that all agree on who
   * is responsible for what (a node that started first briefly owns everything).
   */
  void awaitSettled() {
    List<String> running = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      if (nodes.get(i) != null) {
        running.add(address(i));
      }
    }
    running.sort(String::compareTo);
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20)).pollInterval(java.time.Duration.ofMillis(20))
        .until(() -> nodes.stream().filter(java.util.Objects::nonNull)
            .allMatch(n -> n.cluster().orElseThrow().members().ownershipMembers().equals(running)));
  }

  NodeConfig config(int i) {
    Properties p = new Properties();
    p.putAll(settings);
    p.setProperty(NodeConfig.PORT, String.valueOf(ports.get(i)));
    p.setProperty(NodeConfig.BIND, hosts.get(i));
    p.setProperty(NodeConfig.DATA_DIR, dataDir(i).toString());
    if (membersOf.containsKey(i)) {
      p.setProperty(NodeConfig.MEMBERS, membersOf.get(i));
    }
    return NodeConfig.from(p);
  }

  Path dataDir(int i) {
    return root.resolve("node-" + i);
  }

  void startNode(int i) {
    if (nodes.get(i) != null) {
      throw new IllegalStateException("node " + i + " is running");
    }
    nodes.set(i, Node.start(config(i), FaultSeams.forNode(address(i), faults, clientFaults, pauses)));
  }

  /** Stops node i: its servers close, its memory is gone; its folder stays. */
  void stopNode(int i) {
    Node n = nodes.set(i, null);
    if (n != null) {
      n.close();
    }
  }

  /** Stops node i and deletes its folder. */
  void wipeNode(int i) {
    stopNode(i);
    try (Stream<Path> paths = Files.exists(dataDir(i)) ? Files.walk(dataDir(i)) : Stream.empty()) {
      for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Node node(int i) {
    Node n = nodes.get(i);
    if (n == null) {
      throw new IllegalStateException("node " + i + " is stopped");
    }
    return n;
  }

  int size() {
    return nodes.size();
  }

  String address(int i) {
    return hosts.get(i) + ":" + ports.get(i);
  }

  /** Node {@code i} as a member address. */
  MemberAddress member(int i) {
    return new MemberAddress(hosts.get(i), ports.get(i));
  }

  int indexOf(String address) {
    return ports.indexOf(Integer.parseInt(address.substring(address.lastIndexOf(':') + 1)));
  }

  Http http(int i) {
    return new Http("http://" + hosts.get(i) + ":" + ports.get(i));
  }

  /** Index of the node that currently leads Raft, or -1. */
  int leader() {
    for (int i = 0; i < nodes.size(); i++) {
      Node n = nodes.get(i);
      if (n != null && n.raftStatus().role().equals("LEADER")) {
        return i;
      }
    }
    return -1;
  }

  static JsonNode json(Http.Response r) {
    try {
      return MAPPER.readTree(r.body());
    } catch (IOException e) {
      throw new UncheckedIOException("not JSON (status " + r.status() + "): " + r.body(), e);
    }
  }

  /** {@code ip:port} of every host the node lists for the service. */
  List<String> hosts(int i, String service) {
    Http.Response r = http(i).get(NS + "/instance/list", Map.of("serviceName", service));
    if (r.status() != 200) {
      throw new AssertionError("node " + i + " list " + service + " answered " + r.status() + ": " + r.body());
    }
    List<String> out = new ArrayList<>();
    json(r).get("hosts").forEach(h -> out.add(h.get("ip").asText() + ":" + h.get("port").asInt()));
    out.sort(String::compareTo);
    return out;
  }

  /**
   * As {@link #hosts}, read in this JVM from node i's registry (public namespace, default group):
   * it works while the node is paused or cut off from clients, where HTTP would be held or reset.
   */
  List<String> hostsInProcess(int i, String service) {
    var key = new dev.nacre.naming.model.ServiceKey("public", "DEFAULT_GROUP", service);
    List<String> out = new ArrayList<>();
    node(i).naming().allInstances(key).forEach(in -> out.add(in.key().ip() + ":" + in.key().port()));
    out.sort(String::compareTo);
    return out;
  }

  /** The faults on the links between this cluster's members (peer gRPC and Raft). */
  LinkFaults faults() {
    return faults;
  }

  /** Every member's address. */
  Set<String> members() {
    Set<String> out = new LinkedHashSet<>();
    for (int i = 0; i < size(); i++) {
      out.add(address(i));
    }
    return out;
  }

  Set<String> addresses(Collection<Integer> indexes) {
    return indexes.stream().map(this::address).collect(Collectors.toCollection(LinkedHashSet::new));
  }

  /** Cuts every link between the nodes listed and the rest, both ways. */
  void partition(Collection<Integer> side) {
    Set<String> one = addresses(side);
    Set<String> rest = new LinkedHashSet<>(members());
    rest.removeAll(one);
    faults.partition(one, rest);
  }

  /** Cuts every link to and from node i. */
  void isolate(int i) {
    faults.isolate(address(i), members());
  }

  /**
   * Pauses node i for {@code duration}, as a long GC pause would: every call it sends or receives
   * (peer gRPC and Raft) and every client request and answer is held, not dropped, and delivered
   * when it wakes; its own timers (pings, Distro verify, heartbeat scans, probes) wait too.
   * Ratis' internal timers keep running (see FAULTS.md). Returns at once; the pause ends by
   * itself.
   */
  void pause(int i, Duration duration) {
    pauses.pause(address(i), duration);
  }

  boolean isPaused(int i) {
    return pauses.isPaused(address(i));
  }

  /** Clients can no longer reach node i (requests and answers dropped); its peers still can. */
  void isolateFromClients(int i) {
    clientFaults.isolate(address(i));
  }

  /** Clients reach node i again. */
  void healClients(int i) {
    clientFaults.heal(address(i));
  }

  /** The faults on client traffic into this cluster's members. */
  ClientFaults clientFaults() {
    return clientFaults;
  }

  /** Removes every link and client fault; running pauses end at their deadline. */
  void healAll() {
    faults.heal();
    clientFaults.heal();
  }

  /** What every running node says of itself, for failure messages. */
  String describe() {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < nodes.size(); i++) {
      Node n = nodes.get(i);
      b.append("node ").append(i).append(' ').append(address(i)).append(": ")
          .append(n == null ? "stopped" : n.raftStatus()).append('\n');
    }
    b.append(faults).append('\n').append(clientFaults).append('\n');
    return b.toString();
  }

  @Override
  public void close() {
    for (int i = nodes.size() - 1; i >= 0; i--) {
      stopNode(i);
    }
    for (AutoCloseable hook : raftHooks) {
      try {
        hook.close();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
    raftHooks.clear();
  }
}
