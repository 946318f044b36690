package dev.nacre.cluster;

import static dev.nacre.cluster.LocalCluster.NS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nacre.consensus.distro.DistroRecord;
import dev.nacre.naming.distro.DistroKeys;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.node.config.NodeConfig;
import dev.nacre.node.testkit.Http;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Ephemeral (AP) instances across a 3-node cluster: replication, ownership, owner loss, load. */
@Timeout(180)
class EphemeralClusterTest {
  @TempDir Path dir;

  private static Map<String, String> inst(String service, String ip, int port) {
    return Map.of("serviceName", service, "ip", ip, "port", String.valueOf(port));
  }

  private static void awaitHosts(LocalCluster c, int node, String service, List<String> expected) {
    await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50))
        .untilAsserted(() -> assertThat(c.hosts(node, service)).as("node %d\n%s", node, c.describe()).isEqualTo(expected));
  }

  private static String ownerOnNode(LocalCluster c, int node, String service, String ip, int port) throws Exception {
    String key = DistroKeys.instanceKey(new InstanceKey(new ServiceKey("public", "DEFAULT_GROUP", service), "DEFAULT", ip, port));
    DistroRecord r = c.node(node).cluster().orElseThrow().replicator().liveRecords().get(5, TimeUnit.SECONDS).get(key);
    return r == null ? "" : r.owner();
  }

  @Test
  void registrationsOnAnyNodeReachEveryNodeAndAreOwnedByTheResponsibleOne() throws Exception {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of())) {
      for (int i = 0; i < 3; i++) {
        assertThat(c.http(i).post(NS + "/instance", inst("everywhere", "127.0.1." + (i + 1), 80)).status()).isEqualTo(200);
      }
      List<String> all = List.of("127.0.1.1:80", "127.0.1.2:80", "127.0.1.3:80");
      for (int i = 0; i < 3; i++) {
        awaitHosts(c, i, "everywhere", all);
      }
      String responsible = c.node(0).cluster().orElseThrow().responsibleMember(new ServiceKey("public", "DEFAULT_GROUP", "everywhere"));
      for (int i = 0; i < 3; i++) {
        assertThat(ownerOnNode(c, i, "everywhere", "127.0.1.1", 80)).isEqualTo(responsible);
      }

      assertThat(c.http(2).delete(NS + "/instance", inst("everywhere", "127.0.1.1", 80)).status()).isEqualTo(200);
      for (int i = 0; i < 3; i++) {
        awaitHosts(c, i, "everywhere", List.of("127.0.1.2:80", "127.0.1.3:80"));
      }
      var beat = LocalCluster.json(c.http(1).put(NS + "/instance/beat", inst("everywhere", "127.0.1.2", 80)));
      assertThat(beat.get("code").asInt()).as("a beat on any node reaches the owner").isEqualTo(10200);
      // Distro meters (issue 12): two live records here, nothing left to send to either peer.
      await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
        String scrape = c.http(0).get("/metrics", Map.of()).body();
        assertThat(scrape).contains("nacre_distro_records{kind=\"live\",node=\"" + c.address(0) + "\"} 2.0");
        for (int peer : new int[] {1, 2}) {
          assertThat(scrape).contains("nacre_distro_pending_keys{node=\"" + c.address(0) + "\",peer=\""
              + c.address(peer) + "\"} 0.0");
        }
      });
      // The responsible member sent the registrations and the removal to each peer in acknowledged
      // batches (a removal that finds its registration still queued goes in its place).
      int owner = java.util.stream.IntStream.range(0, 3).filter(i -> c.address(i).equals(responsible)).findFirst().orElseThrow();
      await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
        String scrape = c.http(owner).get("/metrics", Map.of()).body();
        for (int peer = 0; peer < 3; peer++) {
          if (peer == owner) {
            continue;
          }
          String labels = "node=\"" + c.address(owner) + "\",peer=\"" + c.address(peer) + "\"";
          // A peer seen DOWN for a moment (a slow start) loses its queue and pulls the owner's
          // records instead: then fewer records went in batches.
          if (meter(scrape, "nacre_distro_resyncs_total{" + labels + "}") == 0) {
            assertThat(meter(scrape, "nacre_distro_records_sent_total{" + labels + "}")).isGreaterThanOrEqualTo(3);
          }
          assertThat(meter(scrape, "nacre_distro_batches_total{" + labels + ",result=\"acked\"}")).isGreaterThanOrEqualTo(1);
        }
        // Peer RPCs by method and status: the owner's peers pinged it and it answered.
        String pings = "nacre_peer_requests_seconds_count{method=\"Ping\",node=\"" + c.address(owner) + "\",status=\"OK\"}";
        assertThat(meter(scrape, pings)).as(scrape).isGreaterThanOrEqualTo(1);
        assertThat(scrape).contains("nacre_distro_pulls_total{node=\"" + c.address(owner) + "\"}");
      });
      // Every member's Raft apply stall, as each said in its last ping answer (issue 12).
      await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(
          java.util.regex.Pattern.compile("\"applyStalledMs\":0").matcher(
              c.http(1).get("/nacos/v1/core/cluster/nodes", Map.of()).body()).results().count()).isEqualTo(3));
      // Each member's Raft commit index (from its ping answer), and the Distro queue to each peer.
      await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
        String nodes = c.http(1).get("/nacos/v1/core/cluster/nodes", Map.of()).body();
        assertThat(java.util.regex.Pattern.compile("\"commitIndex\":\\d+").matcher(nodes).results().count())
            .as(nodes).isEqualTo(3);
        assertThat(java.util.regex.Pattern.compile("\"appliedIndex\":\\d+").matcher(nodes).results().count())
            .as(nodes).isEqualTo(3);
        assertThat(java.util.regex.Pattern.compile("\"distroPendingKeys\":\\d+").matcher(nodes).results().count())
            .as("a queue to each of the two peers: " + nodes).isEqualTo(2);
      });
      // The responsible member's peers acknowledged its batches: it shows when each last did.
      String ownerNodes = c.http(owner).get("/nacos/v1/core/cluster/nodes", Map.of()).body();
      assertThat(java.util.regex.Pattern.compile("\"distroLastSyncTime\":[1-9]\\d+").matcher(ownerNodes)
          .results().count()).as(ownerNodes).isEqualTo(2);
    }
  }

  @Test
  void ownerLossKeepsBeatingInstancesAndDropsSilentOnesAfterGrace() throws Exception {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of())) {
      ServiceKey service = new ServiceKey("public", "DEFAULT_GROUP", "takeover");
      c.http(0).post(NS + "/instance", inst("takeover", "127.0.2.1", 80));
      c.http(0).post(NS + "/instance", inst("takeover", "127.0.2.2", 80));
      for (int i = 0; i < 3; i++) {
        awaitHosts(c, i, "takeover", List.of("127.0.2.1:80", "127.0.2.2:80"));
      }
      // Stop the member that owns the silent instance, as every node sees it. Not the member the
      // test would compute as responsible: a member that looked DOWN for a moment under load
      // moves the responsibility, and then the registration went elsewhere (a CI run stopped a
      // member that owned nothing and waited for a drop that could never come).
      String ownerAddress = ownerOnNode(c, 0, "takeover", "127.0.2.2", 80);
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
        for (int i = 0; i < 3; i++) {
          assertThat(ownerOnNode(c, i, "takeover", "127.0.2.2", 80)).as("owner on node %d", i).isEqualTo(ownerAddress);
        }
      });
      int owner = c.indexOf(ownerAddress);
      int other = (owner + 1) % 3;
      int third = (owner + 2) % 3;

      // 127.0.2.1 beats all along, as a client does, to a node that stays (it is routed to the
      // responsible member); 127.0.2.2 goes silent with its owner. Beating only once the stop has
      // returned lost the race on a loaded host: a stop took longer than the peers' grace period,
      // so they dropped both before the first beat, and every beat then said "unknown" (20404).
      AtomicReference<String> lastBeat = new AtomicReference<>("none");
      ScheduledExecutorService beats = Executors.newSingleThreadScheduledExecutor();
      beats.scheduleWithFixedDelay(() -> {
        try {
          lastBeat.set(String.valueOf(c.http(third).put(NS + "/instance/beat", inst("takeover", "127.0.2.1", 80))));
        } catch (RuntimeException e) { // a failed beat must not end the schedule
          lastBeat.set(e.toString());
        }
      }, 0, 300, TimeUnit.MILLISECONDS);
      try {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        c.stopNode(owner);
        await().atMost(Duration.ofSeconds(25)).pollInterval(Duration.ofMillis(300)).untilAsserted(() -> {
          String state = "last beat " + lastBeat.get() + "; owners of 127.0.2.1 on the survivors: "
              + ownerOnNode(c, other, "takeover", "127.0.2.1", 80) + ", " + ownerOnNode(c, third, "takeover", "127.0.2.1", 80)
              + "\n" + c.describe();
          assertThat(c.hosts(other, "takeover")).as("node %d; %s", other, state).containsExactly("127.0.2.1:80");
          assertThat(c.hosts(third, "takeover")).as("node %d; %s", third, state).containsExactly("127.0.2.1:80");
        });
        assertThat(System.nanoTime()).isLessThan(deadline);
      } finally {
        beats.shutdownNow();
        beats.awaitTermination(5, TimeUnit.SECONDS);
      }
      String newOwner = c.node(third).cluster().orElseThrow().responsibleMember(service);
      assertThat(newOwner).isNotEqualTo(ownerAddress);
      assertThat(ownerOnNode(c, other, "takeover", "127.0.2.1", 80)).isEqualTo(newOwner);
    }
  }

  @Test
  void aStartingNodeLoadsTheSnapshotBeforeItIsReady() {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of())) {
      c.stopNode(2);
      for (int i = 0; i < 20; i++) {
        assertThat(c.http(i % 2).post(NS + "/instance", inst("load", "127.0.3." + (i + 1), 80)).status()).isEqualTo(200);
      }
      for (int i = 0; i < 2; i++) {
        int n = i;
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(c.hosts(n, "load")).hasSize(20));
      }
      c.wipeNode(2);
      c.startNode(2);
      // Node.start returns once ready: the snapshot must be there without waiting.
      assertThat(c.hosts(2, "load")).hasSize(20);
      assertThat(c.http(2).get("/nacre/v1/status", Map.of()).body()).contains(" distro=LOADED");
      assertThat(c.http(2).get("/metrics", Map.of()).body())
          .containsPattern("(?m)^nacre_distro_snapshot_loads_total\\{[^}]*\\} 1\\.0$");
      assertThat(c.http(2).get("/nacos/v1/console/health/readiness", Map.of()))
          .isEqualTo(new Http.Response(200, "OK"));
      assertThat(c.http(2).get("/nacos/v1/console/health/liveness", Map.of()))
          .isEqualTo(new Http.Response(200, "OK"));
    }
  }

  /**
   * An HTTP registration lives as long as its client beats, not as long as its owner's run: a
   * restarted owner takes it back from a peer's snapshot, and no node stops listing it (before,
   * the owner dropped it, verify removed it everywhere and the next beat registered it again).
   */
  @Test
  void aRestartedOwnerKeepsTheBeatDrivenInstancesItOwned() throws Exception {
    // The owner must be back within the peers' grace period, or they drop its records by design.
    // The harness' 3 s is too short for a stop on a loaded host: one took 6 s (Ratis
    // waited 3 s, twice, for a Raft channel to close), and the restarted owner found nothing.
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of(NodeConfig.DISTRO_VERIFY, "500",
        NodeConfig.DISTRO_GRACE, "60000"))) {
      assertThat(c.http(0).post(NS + "/instance", inst("kept", "127.0.7.1", 80)).status()).isEqualTo(200);
      // The record reaches node 0 too when node 0 is not its owner: wait until all agree.
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
        String first = ownerOnNode(c, 0, "kept", "127.0.7.1", 80);
        assertThat(first).isNotEmpty();
        for (int i = 1; i < 3; i++) {
          assertThat(ownerOnNode(c, i, "kept", "127.0.7.1", 80)).as("owner on node %d", i).isEqualTo(first);
        }
      });
      String ownerAddress = ownerOnNode(c, 0, "kept", "127.0.7.1", 80);
      int owner = c.indexOf(ownerAddress);
      c.stopNode(owner);
      c.startNode(owner);
      // Ready means loaded: the owner lists it at once, as its own again.
      assertThat(c.hosts(owner, "kept")).containsExactly("127.0.7.1:80");
      assertThat(ownerOnNode(c, owner, "kept", "127.0.7.1", 80)).isEqualTo(ownerAddress);
      // Through several verify rounds and no beat, every node keeps listing it.
      await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100))
          .untilAsserted(() -> {
            for (int i = 0; i < 3; i++) {
              assertThat(c.hosts(i, "kept")).as("node %d\n%s", i, c.describe()).containsExactly("127.0.7.1:80");
            }
          });
    }
  }

  /**
   * Issue 10: a starting node whose peers do not answer yet says it is loading and answers no
   * read until a peer answered and its snapshot is loaded.
   */
  @Test
  void aStartingNodeAnswersNoReadWhileLoading() throws Exception {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of(NodeConfig.PEER_WAIT_AT_START, "60000"))) {
      assertThat(c.http(0).post(NS + "/instance", inst("loading", "127.0.5.1", 80)).status()).isEqualTo(200);
      await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(c.hosts(1, "loading")).hasSize(1));
      // Not the owner: a restarted owner's earlier instances die with its earlier run (by design).
      String owner = c.node(0).cluster().orElseThrow().responsibleMember(new ServiceKey("public", "DEFAULT_GROUP", "loading"));
      int v = c.address(2).equals(owner) ? 1 : 2;
      c.stopNode(v);
      c.isolate(v);
      Thread starter = new Thread(() -> c.startNode(v), "start-node-" + v);
      starter.start();
      try {
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().pollInterval(Duration.ofMillis(50)).untilAsserted(() ->
            assertThat(c.http(v).get("/nacos/v1/console/health/readiness", Map.of()).status()).isEqualTo(500));
        assertThat(c.http(v).get("/nacos/v1/console/health/readiness", Map.of()).body()).contains("loading");
        assertThat(c.http(v).get("/nacre/v1/status", Map.of()).body()).contains(" distro=LOADING");
        assertThat(c.http(v).get(NS + "/instance/list", Map.of("serviceName", "loading")).status()).isEqualTo(503);
      } finally {
        c.healAll();
        starter.join(60_000);
      }
      assertThat(starter.isAlive()).isFalse();
      assertThat(c.hosts(v, "loading")).containsExactly("127.0.5.1:80");
      assertThat(c.http(v).get("/nacre/v1/status", Map.of()).body()).contains(" distro=LOADED");
    }
  }

  /** A node none of whose peers answers within the bound starts empty, alone, and says so. */
  @Test
  void aNodeThatFindsNoPeerStartsAlone() {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of())) {
      c.stopNode(1);
      c.stopNode(2);
      c.stopNode(0);
      c.startNode(0);
      assertThat(c.http(0).get("/nacre/v1/status", Map.of()).body()).contains(" distro=ALONE");
      assertThat(c.http(0).get("/nacos/v1/console/health/readiness", Map.of()).status()).isEqualTo(200);
      assertThat(c.http(0).post(NS + "/instance", inst("alone-first", "127.0.6.1", 80)).status()).isEqualTo(200);
      c.startNode(1);
      assertThat(c.http(1).get("/nacre/v1/status", Map.of()).body()).contains(" distro=LOADED");
      assertThat(c.hosts(1, "alone-first")).containsExactly("127.0.6.1:80");
    }
  }

  @Test
  void apWritesGoOnWithoutAMajority() {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of())) {
      c.stopNode(1);
      c.stopNode(2);
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() ->
          c.node(0).cluster().orElseThrow().members().ownershipMembers().equals(List.of(c.address(0))));
      assertThat(c.http(0).post(NS + "/instance", inst("alone", "127.0.4.1", 80)).status()).isEqualTo(200);
      assertThat(c.hosts(0, "alone")).containsExactly("127.0.4.1:80");
      var cp = c.http(0).post(NS + "/instance", Map.of("serviceName", "alone", "ip", "127.0.4.2", "port", "80", "ephemeral", "false"));
      assertThat(cp.status()).isEqualTo(503);
    }
  }

  /** The value of one sample line of a Prometheus scrape; fails when the line is missing. */
  private static double meter(String scrape, String sample) {
    for (String line : scrape.split("\n")) {
      if (line.startsWith(sample + " ")) {
        return Double.parseDouble(line.substring(sample.length() + 1).trim());
      }
    }
    throw new AssertionError("no sample " + sample + " in the scrape");
  }
}
