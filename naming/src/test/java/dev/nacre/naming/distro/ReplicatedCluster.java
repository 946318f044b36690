package dev.nacre.naming.distro;

import static org.awaitility.Awaitility.await;

import dev.nacre.consensus.distro.DistroConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * N replicated members in one JVM over an {@link InMemoryDistroNetwork}, with a short Distro
 * configuration so that the suite stays fast. As a JUnit extension ({@code @RegisterExtension}) it
 * prints every member's view when a test fails, then closes the members after each test.
 */
final class ReplicatedCluster implements AutoCloseable, AfterEachCallback {
  static final Duration GRACE = Duration.ofMillis(700);
  static final DistroConfig FAST = DistroConfig.builder()
      .flushDelay(Duration.ofMillis(20))
      .verifyInterval(Duration.ofMillis(200))
      .retryBackoff(Duration.ofMillis(20), Duration.ofMillis(200))
      .requestTimeout(Duration.ofMillis(500))
      .ownerGracePeriod(GRACE)
      .tombstoneRetention(Duration.ofSeconds(10))
      .initialLoadTimeout(Duration.ofSeconds(3))
      .tickInterval(Duration.ofMillis(5))
      .build();

  final InMemoryDistroNetwork network = new InMemoryDistroNetwork();
  private final List<String> ids = new ArrayList<>();
  private final Map<String, ReplicatedMember> members = new LinkedHashMap<>();
  private final List<ReplicatedMember> retired = new ArrayList<>();

  /** Creates and starts {@code size} members a, b, c, ... and waits until all are ready. */
  void start(int size) {
    for (int i = 0; i < size; i++) {
      ids.add(String.valueOf((char) ('a' + i)));
    }
    ids.forEach(id -> members.put(id, new ReplicatedMember(id, ids, FAST, network)));
    members.values().forEach(m -> m.replicator().start());
    members.values().forEach(ReplicatedCluster::awaitReady);
  }

  ReplicatedMember member(String id) {
    return members.get(id);
  }

  List<ReplicatedMember> members() {
    return List.copyOf(members.values());
  }

  /** The member stops without a goodbye; the others' membership says DOWN. */
  void crash(String id) {
    network.detach(id);
    ReplicatedMember gone = members.remove(id);
    gone.close();
    retired.add(gone);
    members.values().forEach(m -> m.replicator().memberDown(id));
  }

  /** The member starts again with empty memory; the others see it UP; it loads a snapshot. */
  ReplicatedMember restart(String id) {
    ReplicatedMember fresh = new ReplicatedMember(id, ids, FAST, network);
    members.values().forEach(m -> m.replicator().memberUp(id));
    members.put(id, fresh);
    fresh.replicator().start();
    awaitReady(fresh);
    return fresh;
  }

  private static void awaitReady(ReplicatedMember m) {
    m.replicator().whenReady().orTimeout(10, TimeUnit.SECONDS).join();
  }

  /** Polls {@code assertion} until it passes, for at most 10 s. */
  static void eventually(Runnable assertion) {
    await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).untilAsserted(assertion::run);
  }

  String describe() {
    return members.values().stream().map(ReplicatedMember::describe).collect(Collectors.joining("\n  ", "  ", ""));
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (context.getExecutionException().isPresent()) {
      System.err.println("[cluster at failure of " + context.getDisplayName() + "]\n" + describe());
    }
    close();
  }

  @Override
  public void close() {
    members.values().forEach(ReplicatedMember::close);
    members.clear();
    ids.clear();
  }
}
