package dev.nacre.consensus.raft;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.util.CodeInjectionForTesting;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * With Ratis' handlers on the transport threads (as real nodes run), vote requests are still
 * handled on threads of their own: a candidate that grants a vote waits in the handler for its own
 * election round, and on a transport thread that wait held the channels carrying the round's
 * answers, so the round could run its full timeout (VoteCallsOffTransport).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class VoteHandlerThreadTest {
  /** This test's members: Ratis' hooks are JVM-wide and other tests' members are left alone. */
  private final Set<String> members = ConcurrentHashMap.newKeySet();
  private final Set<String> voteThreads = ConcurrentHashMap.newKeySet();

  @TempDir Path dir;

  @AfterEach
  void removeHook() throws ReflectiveOperationException {
    CodeInjectionForTesting.remove(TestCluster.ratisHook("REQUEST_VOTE"));
  }

  @Test
  void voteRequestsAreHandledOffTheTransportThreads() throws Exception {
    CodeInjectionForTesting.put(TestCluster.ratisHook("REQUEST_VOTE"), (local, remote, args) -> {
      if (members.contains(String.valueOf(local))) {
        voteThreads.add(Thread.currentThread().getName());
      }
      return false;
    });
    try (TestCluster cluster = new TestCluster(dir, 3, b -> b.handlerThreads(RaftConfig.HandlerThreads.TRANSPORT))) {
      members.addAll(cluster.ids());
      cluster.startAll();
      cluster.awaitLeader(Duration.ofSeconds(20));
    }
    assertThat(voteThreads).as("threads that handled this cluster's vote requests").isNotEmpty()
        .allSatisfy(name -> assertThat(name).startsWith("raft-vote-handler-"));
  }
}
