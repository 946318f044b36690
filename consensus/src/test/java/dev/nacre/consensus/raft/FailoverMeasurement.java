package dev.nacre.consensus.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Not part of the build (the name does not match surefire's patterns). Measures, for the election
 * timeouts in -Dnacre.test.election=min,max (default: RaftConfig's), leader stability under a write
 * load and leader-kill-to-next-write over several kills. Run with
 * {@code mvn -pl consensus verify -Dtest=FailoverMeasurement -Dnacre.test.election=600,1200}.
 */
class FailoverMeasurement {
  @TempDir Path dir;

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void measure() {
    int kills = Integer.getInteger("nacre.test.kills", 6);
    try (TestCluster cluster = TestCluster.started(dir, 3, b -> b)) {
      int leader = cluster.awaitLeader(Duration.ofSeconds(15));
      long termBefore = cluster.log(leader).status().term();
      // Load: 4 writers submitting as fast as they can for 10 s, on every member.
      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong writes = new AtomicLong();
      List<CompletableFuture<Void>> writers = new ArrayList<>();
      int writerCount = Integer.getInteger("nacre.test.writers", 4);
      long loadSeconds = Integer.getInteger("nacre.test.loadSeconds", 10);
      for (int w = 0; w < writerCount; w++) {
        int member = w % 3;
        int writer = w;
        writers.add(CompletableFuture.runAsync(() -> {
          for (long n = 0; !stop.get(); n++) {
            cluster.log(member).submit(KvStateMachine.put("w" + writer + "-" + (n % 500), "x".repeat(200))).join();
            writes.incrementAndGet();
          }
        }));
      }
      long loadStart = System.nanoTime();
      await().atMost(Duration.ofSeconds(loadSeconds + 5))
          .until(() -> System.nanoTime() - loadStart > loadSeconds * 1_000_000_000L);
      stop.set(true);
      writers.forEach(CompletableFuture::join);
      long termAfter = cluster.log(leader).status().term();
      System.out.printf("MEASURED load: %d writers, %d writes in %d s, term %d -> %d (leader changes under load: %d)%n",
          writerCount, writes.get(), loadSeconds, termBefore, termAfter, termAfter - termBefore);

      List<Long> failovers = new ArrayList<>();
      List<Long> stops = new ArrayList<>();
      for (int k = 0; k < kills; k++) {
        leader = cluster.awaitLeader(Duration.ofSeconds(15));
        int survivor = cluster.anyFollower(leader);
        long killedAt = System.nanoTime();
        org.slf4j.LoggerFactory.getLogger(FailoverMeasurement.class).info("KILL {} starts", k);
        cluster.stop(leader);
        org.slf4j.LoggerFactory.getLogger(FailoverMeasurement.class).info("KILL {} stop returned", k);
        stops.add((System.nanoTime() - killedAt) / 1_000_000);
        long at = ThreePeerReplicatedLogTest.writeUntilSuccess(
            cluster, survivor, KvStateMachine.put("kill", "" + k), Duration.ofSeconds(20));
        failovers.add((at - killedAt) / 1_000_000);
        org.slf4j.LoggerFactory.getLogger(FailoverMeasurement.class).info("KILL {} write ok after {} ms", k,
            (at - killedAt) / 1_000_000);
        cluster.start(leader);
        int restarted = leader;
        await().atMost(Duration.ofSeconds(20)).until(() -> cluster.machine(restarted).get("kill").isPresent());
      }
      System.out.println("MEASURED leader kill -> next write (ms): " + failovers + " of which stop() took "
          + stops + " election="
          + cluster.log(cluster.awaitLeader(Duration.ofSeconds(15))).config().electionTimeoutMin().toMillis() + "/"
          + cluster.log(cluster.awaitLeader(Duration.ofSeconds(15))).config().electionTimeoutMax().toMillis());
      assertThat(failovers).hasSize(kills);
    }
  }
}
