package dev.nacre.consensus.raft;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.proto.RaftProtos.AppendEntriesRequestProto;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A leader that keeps committing with one follower down tries that follower about once per
 * heartbeat interval, and its appender for it does not spin: on two cores a spinning appender took
 * a whole core from the rest of the machine, including the member starting up again.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DownFollowerTest {
  private static final Logger log = LoggerFactory.getLogger(DownFollowerTest.class);
  private static final Duration ELECTION = Duration.ofSeconds(15);
  /** Writes before counting: the follower counts as silent only after a minimum election timeout. */
  private static final long LEAD_IN_NANOS = TimeUnit.MILLISECONDS.toNanos(600);
  private static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(2);
  /** One request per heartbeat interval (200 ms by default) would be 10 in the window. */
  private static final int MAX_REQUESTS_IN_WINDOW = 20;

  @Test
  void aLeaderTriesAFollowerThatIsDownAboutOncePerHeartbeat(@TempDir Path dir) {
    try (TestCluster cluster = TestCluster.started(dir, 3, b -> b)) {
      int leader = cluster.awaitLeader(ELECTION);
      int down = cluster.anyFollower(leader);
      cluster.log(leader).submit(KvStateMachine.put("before", "x")).join();
      cluster.stop(down);
      try (SentRequests sentToDown = SentRequests.of(AppendEntriesRequestProto.class,
          AppendEntriesRequestProto::getServerRequest, null, cluster.id(down))) {
        writeAndCheckTheAppender(cluster, leader, cluster.id(down), sentToDown);
      }
    }
  }

  /** Writes through {@code leader} while member {@code downId} is down, then checks its appender. */
  private static void writeAndCheckTheAppender(TestCluster cluster, int leader, String downId,
      SentRequests sentToDown) {
    long start = System.nanoTime();
    int written = 0;
    long appenderCpuAtStart = -1;
    long windowStart = 0;
    int requestsBefore = 0;
    // Sequential writes, each committed by the two members left: every one wakes the appenders.
    for (int i = 0; i < 5_000 && System.nanoTime() - start < LEAD_IN_NANOS + WINDOW_NANOS; i++) {
      if (windowStart == 0 && System.nanoTime() - start >= LEAD_IN_NANOS) {
        windowStart = System.nanoTime();
        appenderCpuAtStart = appenderCpuNanos(downId);
        requestsBefore = sentToDown.count();
      }
      cluster.log(leader).submit(KvStateMachine.put("k" + i, "v")).join();
      written++;
    }
    int requestsToDownMember = sentToDown.count() - requestsBefore;
    long windowNanos = System.nanoTime() - windowStart;
    long appenderCpu = appenderCpuNanos(downId) - appenderCpuAtStart;

    log.info("{} writes; in the last {} ms {} append requests to the member that is down, its appender {} ms of CPU",
        written, TimeUnit.NANOSECONDS.toMillis(windowNanos), requestsToDownMember,
        TimeUnit.NANOSECONDS.toMillis(appenderCpu));
    assertThat(windowStart).as("the writes reached the counted window").isPositive();
    assertThat(written).as("writes committed without the member that is down").isGreaterThan(10);
    assertThat(requestsToDownMember)
        .as("append requests to the member that is down in %d ms", TimeUnit.NANOSECONDS.toMillis(windowNanos))
        .isLessThanOrEqualTo(MAX_REQUESTS_IN_WINDOW);
    assertThat(appenderCpu).as("CPU of the appender for the member that is down, against %d ns of window",
        windowNanos).isLessThan(windowNanos / 10);
  }

  /** CPU time of the leader's appender thread for {@code followerId} (Ratis names it after both ends). */
  private static long appenderCpuNanos(String followerId) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Thread appender = Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().contains("->" + followerId) && t.getName().contains("Appender"))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no appender thread for " + followerId));
    return threads.getThreadCpuTime(appender.getId());
  }
}
