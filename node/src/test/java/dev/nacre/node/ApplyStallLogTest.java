package dev.nacre.node;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.nacre.consensus.raft.RaftStatus;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class ApplyStallLogTest {
  private static RaftStatus stalledFor(long millis) {
    return new RaftStatus("n1", "FOLLOWER", "n2", 3, 120, 100, millis);
  }

  @Test
  void aStallIsLoggedOnceAsAnErrorAndTheRecoveryOnce() {
    Logger logger = (Logger) LoggerFactory.getLogger(ApplyStallLog.class);
    ListAppender<ILoggingEvent> seen = new ListAppender<>();
    seen.start();
    logger.addAppender(seen);
    try {
      AtomicReference<RaftStatus> status = new AtomicReference<>(stalledFor(0));
      ApplyStallLog stallLog = new ApplyStallLog("127.0.0.1:8848", status::get);
      stallLog.check();
      status.set(stalledFor(ApplyStallLog.STALLED_AFTER.toMillis() - 1));
      stallLog.check();
      assertThat(seen.list).isEmpty();

      status.set(stalledFor(ApplyStallLog.STALLED_AFTER.toMillis()));
      stallLog.check();
      status.set(stalledFor(ApplyStallLog.STALLED_AFTER.toMillis() + 5_000));
      stallLog.check();
      assertThat(seen.list).hasSize(1);
      assertThat(seen.list.get(0).getLevel()).isEqualTo(Level.ERROR);
      assertThat(seen.list.get(0).getFormattedMessage()).contains("applied nothing for 10 s")
          .contains("entries 101..120").contains("restart the node");

      status.set(stalledFor(0));
      stallLog.check();
      stallLog.check();
      assertThat(seen.list).hasSize(2);
      assertThat(seen.list.get(1).getLevel()).isEqualTo(Level.INFO);
      assertThat(seen.list.get(1).getFormattedMessage()).contains("applies again");
    } finally {
      logger.detachAppender(seen);
    }
  }
}
