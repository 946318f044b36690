package dev.nacre.consensus.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.ratis.proto.RaftProtos.AppendEntriesRequestProto;
import org.apache.ratis.util.CodeInjectionForTesting;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new group's first leader writes its start-up entry at index 0 and is cut off before anyone has
 * it; the next leader writes a different index 0. Once the old leader hears from the new one it
 * must take the new leader's log. Ratis lets an empty append request that names no previous entry
 * commit index 0, so the old leader committed its own, never-replicated index 0, refused the
 * leader's from then on and never caught up (a paused first leader in the cluster tests).
 *
 * <p>The links are cut with Ratis' own test hooks, which this test owns while it runs: the hook
 * throws inside the receiving handler (the sender sees a failed call) or holds it there (the
 * sender times it out), hence handlers on a pool rather than on the transport threads.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConflictingFirstEntryTest {
  private static final Duration STEP = Duration.ofSeconds(20);

  /** This test's members: the hooks are JVM-wide and leave every other member alone. */
  private final Set<String> members = ConcurrentHashMap.newKeySet();
  /** Members whose calls in and out are all dropped. */
  private final Set<String> isolated = ConcurrentHashMap.newKeySet();
  /** Members that the leader's requests carrying index 0 reach only once {@link #healed}. */
  private final Set<String> indexZeroHeld = ConcurrentHashMap.newKeySet();
  private volatile boolean dropAllAppends = true;
  private final CountDownLatch healed = new CountDownLatch(1);
  /** Empty append requests naming no previous entry that reached an {@link #indexZeroHeld} member. */
  private final AtomicInteger emptyWithoutPrevious = new AtomicInteger();
  private volatile long highestCommitSentWithoutPrevious = -1;

  @TempDir Path dir;

  @AfterEach
  void removeHooks() throws ReflectiveOperationException {
    for (String field : List.of("APPEND_ENTRIES", "REQUEST_VOTE")) {
      CodeInjectionForTesting.remove(TestCluster.ratisHook(field));
    }
  }

  @Test
  void aFirstLeaderCutOffBeforeItsFirstEntryReplicatedTakesTheNextLeadersLog() throws Exception {
    CodeInjectionForTesting.put(TestCluster.ratisHook("REQUEST_VOTE"), (local, remote, args) -> {
      passesIfOurs(local, remote);
      return false;
    });
    CodeInjectionForTesting.put(TestCluster.ratisHook("APPEND_ENTRIES"), (local, remote, args) -> {
      if (!passesIfOurs(local, remote)) {
        return false;
      }
      if (dropAllAppends) {
        throw new Cut("test: appends not delivered yet");
      }
      if (indexZeroHeld.contains(local.toString())) {
        AppendEntriesRequestProto request = (AppendEntriesRequestProto) args[args.length - 1];
        if (!request.hasPreviousLog() && request.getEntriesCount() > 0) {
          // Held, not refused: the leader times the call out and, as when a member stalls, then
          // sends only empty requests until the member answers again.
          try {
            healed.await(STEP.toMillis() * 3, TimeUnit.MILLISECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          throw new Cut("test: the leader's index 0 was held from " + local);
        }
        if (!request.hasPreviousLog()) {
          emptyWithoutPrevious.incrementAndGet();
          highestCommitSentWithoutPrevious = Math.max(highestCommitSentWithoutPrevious, request.getLeaderCommit());
        }
      }
      return false;
    });

    try (TestCluster cluster = new TestCluster(dir, 3, b -> b.handlerThreads(RaftConfig.HandlerThreads.POOL))) {
      members.addAll(cluster.ids());
      cluster.startAll();
      // No append is delivered: the first leader's index 0 stays its own. Then it is cut off.
      int old = awaitLeaderOtherThan(cluster, -1);
      isolated.add(cluster.id(old));
      assertThat(cluster.log(old).status().commitIndex()).isEqualTo(-1);

      // The other two elect a leader of their own and commit a write.
      dropAllAppends = false;
      int leader = awaitLeaderOtherThan(cluster, old);
      ThreePeerReplicatedLogTest.writeUntilSuccess(cluster, leader, KvStateMachine.put("k", "v"), STEP);

      // The old leader is reachable again, but the requests carrying the leader's index 0 are held:
      // it hears empty requests that name no previous entry and so prove nothing of its log.
      indexZeroHeld.add(cluster.id(old));
      isolated.remove(cluster.id(old));
      await().atMost(STEP).until(() -> emptyWithoutPrevious.get() >= 3);
      assertThat(highestCommitSentWithoutPrevious).as("commit index sent without a previous entry").isEqualTo(-1);
      assertThat(cluster.log(old).status().commitIndex()).as("the old leader's commit index").isEqualTo(-1);

      // Healed: it replaces its index 0 with the leader's and applies the write.
      indexZeroHeld.clear();
      healed.countDown();
      await().atMost(STEP).pollInterval(Duration.ofMillis(50))
          .untilAsserted(() -> assertThat(cluster.machine(old).get("k")).contains("v"));
    }
  }

  /** False for a call to another test's member; drops a call to or from an isolated member. */
  private boolean passesIfOurs(Object local, Object remote) {
    if (!members.contains(String.valueOf(local))) {
      return false;
    }
    if (isolated.contains(String.valueOf(local)) || isolated.contains(String.valueOf(remote))) {
      throw new Cut("test: link cut between " + local + " and " + remote);
    }
    return true;
  }

  /** A dropped call; no stack trace, which Ratis would send back in the call's trailers. */
  private static final class Cut extends IllegalStateException {
    Cut(String message) {
      super(message);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this;
    }
  }

  /** A member other than {@code excluded} that says it leads (the others need not agree yet). */
  private static int awaitLeaderOtherThan(TestCluster cluster, int excluded) {
    int[] found = {-1};
    await().atMost(STEP).pollInterval(Duration.ofMillis(5)).until(() -> {
      for (int i = 0; i < cluster.size(); i++) {
        if (i != excluded && cluster.log(i).status().role().equals("LEADER")) {
          found[0] = i;
          return true;
        }
      }
      return false;
    });
    return found[0];
  }
}
