package dev.nacre.consensus.raft;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * N Raft members in this JVM on loopback ports, each with its own folder. Peer ids carry a random
 * suffix so that clusters of concurrent tests never share ids. Prints every member's status on close.
 */
final class TestCluster implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TestCluster.class);

  private final Path root;
  private final List<String> ids = new ArrayList<>();
  private final Map<String, String> peers = new LinkedHashMap<>();
  private final UnaryOperator<RaftConfig.Builder> tuning;
  private final RatisReplicatedLog[] logs;
  private final KvStateMachine[] machines;

  static {
    // Ratis ends the JVM when its server cannot bind; in tests that must fail one test, not the fork.
    org.apache.ratis.util.ExitUtils.disableSystemExit();
  }

  TestCluster(Path root, int size, UnaryOperator<RaftConfig.Builder> tuning) {
    this.root = root;
    this.tuning = tuning;
    this.logs = new RatisReplicatedLog[size];
    this.machines = new KvStateMachine[size];
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    for (int i = 0; i < size; i++) {
      String id = "n" + i + "-" + suffix;
      ids.add(id);
      String address;
      do { // the kernel may hand the same free port out twice in a row: one member per port
        address = "127.0.0.1:" + freePort();
      } while (peers.containsValue(address));
      peers.put(id, address);
    }
  }

  static TestCluster started(Path root, int size, UnaryOperator<RaftConfig.Builder> tuning) {
    TestCluster cluster = new TestCluster(root, size, tuning);
    cluster.startAll();
    return cluster;
  }

  void startAll() {
    for (int i = 0; i < size(); i++) {
      start(i);
    }
  }

  /**
   * The name of one of Ratis' JVM-wide test hooks ({@code CodeInjectionForTesting}): a
   * package-private constant of its server such as {@code REQUEST_VOTE}, read rather than copied.
   */
  static String ratisHook(String field) throws ReflectiveOperationException {
    Field f = Class.forName("org.apache.ratis.server.impl.RaftServerImpl").getDeclaredField(field);
    f.setAccessible(true);
    return (String) f.get(null);
  }

  void start(int i) {
    start(i, b -> b);
  }

  /** Starts member {@code i} with {@code override} applied after the cluster-wide tuning. */
  void start(int i, UnaryOperator<RaftConfig.Builder> override) {
    Path dir = root.resolve(ids.get(i));
    machines[i] = new KvStateMachine(dir.resolve("kv"));
    RaftConfig.Builder builder = RaftConfig.builder()
        .groupId("test-group")
        .selfId(ids.get(i))
        .peers(peers)
        .storageDir(dir.resolve("raft"));
    // -Dnacre.test.election=500,1000 measures other election timeouts without editing defaults.
    String election = System.getProperty("nacre.test.election");
    if (election != null) {
      String[] minMax = election.split(",");
      builder.electionTimeout(
          Duration.ofMillis(Long.parseLong(minMax[0].trim())), Duration.ofMillis(Long.parseLong(minMax[1].trim())));
    }
    // -Dnacre.test.clusterSecret=... runs any suite over secret-derived mutual TLS.
    builder.clusterSecret(System.getProperty("nacre.test.clusterSecret"));
    RaftConfig config = override.apply(tuning.apply(builder)).build();
    logs[i] = RatisReplicatedLog.start(config, machines[i]);
  }

  void stop(int i) {
    logs[i].close();
    machines[i].close();
    logs[i] = null;
  }

  void wipe(int i) throws IOException {
    try (Stream<Path> paths = Files.walk(root.resolve(ids.get(i)))) {
      for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }

  /** Member i's Raft peer id. */
  String id(int i) {
    return ids.get(i);
  }

  /** Every member's Raft address by peer id, in index order. */
  Map<String, String> peers() {
    return new LinkedHashMap<>(peers);
  }

  /** Every member's Raft peer id, by index. */
  List<String> ids() {
    return List.copyOf(ids);
  }

  RatisReplicatedLog log(int i) {
    return logs[i];
  }

  KvStateMachine machine(int i) {
    return machines[i];
  }

  int size() {
    return logs.length;
  }

  /** Index of the running member that all running members agree is the leader. */
  int awaitLeader(Duration timeout) {
    int[] found = {-1};
    await().atMost(timeout).pollInterval(Duration.ofMillis(20)).until(() -> {
      found[0] = agreedLeader();
      return found[0] >= 0;
    });
    return found[0];
  }

  private int agreedLeader() {
    int leader = -1;
    for (int i = 0; i < logs.length; i++) {
      if (logs[i] != null && logs[i].status().role().equals("LEADER")) {
        leader = i;
      }
    }
    if (leader < 0) {
      return -1;
    }
    for (RatisReplicatedLog l : logs) {
      if (l != null && !l.status().leaderId().equals(ids.get(leader))) {
        return -1;
      }
    }
    return leader;
  }

  /**
   * Commits one entry, then stops every member but one: the leader when {@code keepLeader}, else a
   * follower. Returns the member left running, which has no quorum.
   */
  int leaveOneMember(boolean keepLeader, Duration election) {
    int leader = awaitLeader(election);
    log(leader).submit(KvStateMachine.put("before", "x")).join();
    int survivor = keepLeader ? leader : anyFollower(leader);
    for (int i = 0; i < size(); i++) {
      if (i != survivor) {
        stop(i);
      }
    }
    return survivor;
  }

  int anyFollower(int leader) {
    for (int i = 0; i < logs.length; i++) {
      if (i != leader && logs[i] != null) {
        return i;
      }
    }
    throw new IllegalStateException("no running follower");
  }

  /**
   * Retries {@code attempt} on {@code member} (each try bounded by the request timeout) until one
   * succeeds, for at most {@code timeout}; returns when, in {@link System#nanoTime} terms. Failures
   * other than {@link ConsensusUnavailableException} end it at once.
   */
  long untilSuccess(int member, Duration timeout, Function<RatisReplicatedLog, CompletableFuture<?>> attempt) {
    long[] at = {0};
    await().atMost(timeout).pollInterval(Duration.ofMillis(10)).until(() -> {
      try {
        attempt.apply(log(member)).join();
        at[0] = System.nanoTime();
        return true;
      } catch (CompletionException e) {
        if (e.getCause() instanceof ConsensusUnavailableException) {
          return false;
        }
        throw e;
      }
    });
    return at[0];
  }

  @Override
  public void close() {
    for (int i = 0; i < logs.length; i++) {
      log.info("member {}: {}", ids.get(i), logs[i] == null ? "stopped" : logs[i].status());
    }
    for (int i = 0; i < logs.length; i++) {
      if (logs[i] != null) {
        stop(i);
      }
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
