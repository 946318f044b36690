package dev.nacre.cluster;

import static dev.nacre.cluster.LocalCluster.NS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nacre.node.cluster.MemberFile;
import dev.nacre.node.config.NodeConfig;
import dev.nacre.node.testkit.Http;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 §4: a live cluster grows from 3 to 5 members and shrinks back to 3 (the leader among
 * those removed) while a writer keeps writing persistent instances through every member and
 * beating clients keep ephemeral instances alive. Every acknowledged write must be on every
 * remaining member, no ephemeral instance may be lost, CP writes must keep being acknowledged,
 * and a removed member must refuse to come back with its stale member list.
 */
@Timeout(300)
class MembershipChangeTest {
  private static final String MEMBERS = MemberChanges.MEMBERS;
  /** Longest time without an acknowledged CP write: an election or two on a busy 2-core box. */
  private static final Duration MAX_CP_GAP = Duration.ofSeconds(10);

  @TempDir Path dir;

  @Test
  void growsToFiveAndShrinksToThreeUnderLoadLosingNothing() throws Exception {
    // Every member rewrites the cluster.conf it was started from (here one file for all of them).
    Path clusterConf = dir.resolve("cluster.conf");
    try (LocalCluster c = LocalCluster.startGrowable(dir, 3, 5, Map.of(NodeConfig.CLUSTER_CONF, clusterConf.toString()))) {
      await().atMost(Duration.ofSeconds(20)).until(() -> c.leader() >= 0);
      Set<Integer> live = new ConcurrentSkipListSet<>(List.of(0, 1, 2));
      List<String> ephemeral = IntStream.range(0, 12).mapToObj(i -> "127.0.7." + (i + 1)).toList();
      try (Load load = new Load(c, live, ephemeral)) {
        load.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> load.acknowledged.size() >= 20);
        for (int i = 0; i < 3; i++) {
          int node = i;
          await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(c.hosts(node, "beating"))
              .as("node %d\n%s", node, c.describe()).hasSize(ephemeral.size()));
        }

        for (int added : List.of(3, 4)) {
          addMember(c, added, live);
          awaitAckedMore(load, 20);
        }
        assertMembers(c, live, 5);
        assertMemberFile(c, clusterConf, live);

        // The leader goes too: hand it to node 4 first, so that a removal ends a leader's term.
        Http.Response moved = c.http(0).post("/nacre/v1/raft/leader", Map.of("member", c.address(4)));
        assertThat(moved.status()).as(moved.body()).isEqualTo(200);
        for (int removed : List.of(4, 3)) {
          removeMember(c, removed, live);
          awaitAckedMore(load, 20);
        }
        assertMembers(c, live, 3);
        assertMemberFile(c, clusterConf, live);
      }

      for (int node : live) {
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(c.hosts(node, "beating"))
            .as("ephemeral instances on node %d\n%s", node, c.describe()).hasSize(ephemeral.size()));
      }
      // Restarted with its start-up list, a removed member refuses to serve as a member.
      c.setMembers(4, List.of(0, 1, 2, 3, 4));
      assertThatThrownBy(() -> c.startNode(4)).hasStackTraceContaining("was removed from the cluster");
      assertMembers(c, live, 3);
    }
  }

  /**
   * A member removed while it was down never sees the configuration without it; started again on
   * its data, it learns of its removal from the others refusing its pings, and serves nothing.
   */
  @Test
  void aMemberRemovedWhileDownLearnsItFromTheOthers() {
    try (LocalCluster c = LocalCluster.startGrowable(dir, 4, 4, Map.of())) {
      await().atMost(Duration.ofSeconds(20)).until(() -> c.leader() >= 0);
      int down = c.leader() == 3 ? 0 : 3;
      List<Integer> stay = IntStream.range(0, 4).filter(i -> i != down).boxed().toList();
      // Only a member that saw a configuration listing it can later count the others' refusals:
      // the leader's first entry must have reached it (and been followed) before it goes down.
      await().atMost(Duration.ofSeconds(20)).until(() -> c.node(down).cluster().orElseThrow().memberList().listedAt() >= 0);
      c.stopNode(down);
      Http.Response r = c.http(stay.get(0)).delete(MEMBERS, Map.of("member", c.address(down)));
      assertThat(r.status()).as("remove %s: %s\n%s", c.address(down), r.body(), c.describe()).isEqualTo(200);
      c.awaitSettled();

      c.startNode(down);
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(c.node(down).readiness().notReadyReason())
          .as("node %d, removed while down\n%s", down, c.describe())
          .hasValueSatisfying(why -> assertThat(why).contains("refuses this node")));
      Http.Response refused = c.http(down).get(NS + "/instance/list", Map.of("serviceName", "any"));
      assertThat(refused.status()).isEqualTo(503);
      assertThat(refused.body()).contains("removed from the cluster");
      assertMembers(c, new java.util.TreeSet<>(stay), 3);
    }
  }

  private static void addMember(LocalCluster c, int node, Set<Integer> live) throws InterruptedException {
    // The new member starts while it is added, as cluster.sh add-node does it.
    Http.Response r = MemberChanges.add(c, node, live, live.iterator().next());
    assertThat(r.status()).as("add %s: %s\n%s", c.address(node), r.body(), c.describe()).isEqualTo(200);
    live.add(node);
    c.awaitSettled();
    // Every member that was there meters its Distro queue to the new one.
    String queue = "nacre_distro_pending_keys{node=\"%s\",peer=\"" + c.address(node) + "\"}";
    for (int other : live) {
      if (other != node) {
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
            c.http(other).get("/metrics", Map.of()).body()).contains(queue.formatted(c.address(other))));
      }
    }
  }

  private static void assertMemberFile(LocalCluster c, Path file, Set<Integer> live) {
    Set<String> expected = live.stream().map(c::address).collect(java.util.stream.Collectors.toSet());
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(MemberFile.read(file))
        .as("%s\n%s", file, c.describe()).containsExactlyInAnyOrderElementsOf(expected));
  }

  private static void removeMember(LocalCluster c, int node, Set<Integer> live) {
    live.remove(node);
    // It learns of its removal through its Raft log, and from then on refuses clients.
    Http.Response r = MemberChanges.remove(c, node, live.iterator().next());
    assertThat(r.status()).as("remove %s: %s\n%s", c.address(node), r.body(), c.describe()).isEqualTo(200);
    c.awaitSettled();
  }

  private static void awaitAckedMore(Load load, int more) {
    int before = load.acknowledged.size();
    await().atMost(Duration.ofSeconds(30)).until(() -> load.acknowledged.size() >= before + more);
  }

  /** Every live member lists the same members, in its Raft group and in Nacos' node list. */
  private static void assertMembers(LocalCluster c, Set<Integer> live, int count) {
    Set<String> expected = new TreeSet<>(c.addresses(live));
    assertThat(expected).hasSize(count);
    for (int node : live) {
      await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
        JsonNode nodes = LocalCluster.json(c.http(node).get("/nacos/v1/core/cluster/nodes", Map.of()));
        Set<String> listed = new TreeSet<>();
        nodes.path("data").forEach(m -> listed.add(m.path("address").asText()));
        assertThat(listed).as("node %d's member list", node).isEqualTo(expected);
        JsonNode members = LocalCluster.json(c.http(node).get(MEMBERS, Map.of()));
        Set<String> raft = new TreeSet<>();
        members.path("members").forEach(m -> raft.add(m.asText()));
        assertThat(raft).as("node %d's Raft members", node).isEqualTo(expected);
      });
    }
  }

  /**
   * A writer of persistent instances (one new instance per write, through the live members in
   * turn) and a beater that keeps the ephemeral instances alive (a beat carries the whole
   * instance, so a member that lost it registers it again, as Nacos 1.x clients do). Both are
   * bounded in count and time. On close, checks that every acknowledged write is on every member.
   */
  private static final class Load implements AutoCloseable {
    private static final int MAX_WRITES = 20_000;
    private static final Duration MAX_TIME = Duration.ofMinutes(4);
    final Set<String> acknowledged = new ConcurrentSkipListSet<>();
    private final LocalCluster c;
    private final Set<Integer> live;
    private final List<String> ephemeral;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicLong lastAckNanos = new AtomicLong(System.nanoTime());
    private final AtomicLong longestGapNanos = new AtomicLong();
    private final List<Thread> threads = new ArrayList<>();

    Load(LocalCluster c, Set<Integer> live, List<String> ephemeral) {
      this.c = c;
      this.live = live;
      this.ephemeral = ephemeral;
    }

    void start() {
      threads.add(new Thread(this::write, "cp-writer"));
      threads.add(new Thread(this::beat, "ephemeral-beater"));
      threads.forEach(Thread::start);
    }

    private void write() {
      long deadline = System.nanoTime() + MAX_TIME.toNanos();
      for (int n = 0; n < MAX_WRITES && !stop.get() && System.nanoTime() < deadline; n++) {
        String ip = "127.1." + (n / 250) + "." + (n % 250 + 1);
        List<Integer> members = new ArrayList<>(live);
        int node = members.get(n % members.size());
        try {
          Http.Response r = c.http(node).post(NS + "/instance",
              Map.of("serviceName", "written", "ip", ip, "port", "80", "ephemeral", "false"));
          if (r.status() == 200) {
            acknowledged.add(ip + ":80");
            long now = System.nanoTime();
            longestGapNanos.accumulateAndGet(now - lastAckNanos.getAndSet(now), Math::max);
          }
        } catch (RuntimeException e) {
          // a member stopped under the call: not acknowledged, so nothing to find later
        }
      }
    }

    private void beat() {
      long deadline = System.nanoTime() + MAX_TIME.toNanos();
      for (int round = 0; round < 5_000 && !stop.get() && System.nanoTime() < deadline; round++) {
        List<Integer> members = new ArrayList<>(live);
        for (int i = 0; i < ephemeral.size(); i++) {
          String ip = ephemeral.get(i);
          String beat = "{\"serviceName\":\"beating\",\"ip\":\"" + ip + "\",\"port\":80}";
          try {
            c.http(members.get((round + i) % members.size())).put(NS + "/instance/beat",
                Map.of("serviceName", "beating", "beat", beat));
          } catch (RuntimeException e) {
            // the next round beats it again
          }
        }
        // The pace of a client's beats (each instance about every 250 ms), not a wait for some state.
        LockSupport.parkNanos(Duration.ofMillis(250).toNanos());
      }
    }

    @Override
    public void close() throws InterruptedException {
      stop.set(true);
      for (Thread t : threads) {
        t.join(Duration.ofSeconds(30).toMillis());
      }
      assertThat(Duration.ofNanos(longestGapNanos.get())).as("longest time without a CP acknowledgement")
          .isLessThan(MAX_CP_GAP);
      Set<String> expected = new TreeSet<>(acknowledged);
      for (int node : live) {
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(c.hosts(node, "written"))
            .as("acknowledged persistent writes on node %d\n%s", node, c.describe()).containsAll(expected));
      }
      System.out.printf("membership change: %d CP writes acknowledged, longest gap %d ms%n", expected.size(),
          Duration.ofNanos(longestGapNanos.get()).toMillis());
    }
  }
}
