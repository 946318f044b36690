package dev.nacre.client3;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.AppenderBase;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.LoggerFactory;

/**
 * Records what the Nacos client logs (logback-test.xml attaches it to {@code com.alibaba.nacos}):
 * WARN and ERROR lines in full, and a count of all events, so that a test can tell "no ERROR"
 * from "nothing captured at all". Thread-safe: the client logs from its own threads.
 *
 * <p>One ERROR line is counted apart instead ({@link #configShutdownRaces()}): nacos-client
 * 3.1.1's {@code ClientWorker.shutdown()} sets its {@code configFuzzyWatchGroupKeyHolder} to null
 * and only then shuts its {@code RpcClient} down; that closes the connection and queues a
 * DISCONNECTED event, which the client's own event thread may still deliver to
 * {@code ConfigRpcTransportClient$1.onDisConnect}, which calls
 * {@code configFuzzyWatchGroupKeyHolder.resetConsistenceStatus()}: a NullPointerException that
 * {@code RpcClient.notifyDisConnected} logs, without its stack, as {@link #CONFIG_SHUTDOWN_RACE}.
 * It happens in the client alone, after {@code ConfigService.shutDown()} began, whatever the
 * server (read from the 3.1.1 jar's bytecode).
 */
public final class NacosLogRecorder extends AppenderBase<ILoggingEvent> {
  static final String CONFIG_SHUTDOWN_RACE =
      "Notify disconnect listener error, listener = com.alibaba.nacos.client.config.impl.ClientWorker$ConfigRpcTransportClient$1";
  private final List<String> warnings = new CopyOnWriteArrayList<>();
  private final AtomicLong events = new AtomicLong();
  private final AtomicLong configShutdownRaces = new AtomicLong();

  /** The instance logback-test.xml created, found through the logger it is attached to. */
  static NacosLogRecorder installed() {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    Logger nacos = context.getLogger("com.alibaba.nacos");
    if (!(nacos.getAppender("NACOS") instanceof NacosLogRecorder recorder)) {
      throw new IllegalStateException("logback-test.xml does not attach NacosLogRecorder as NACOS to com.alibaba.nacos");
    }
    return recorder;
  }

  @Override
  protected void append(ILoggingEvent event) {
    events.incrementAndGet();
    if (event.getLevel() == Level.ERROR && event.getFormattedMessage().endsWith(CONFIG_SHUTDOWN_RACE)) {
      configShutdownRaces.incrementAndGet();
      return;
    }
    if (event.getLevel().isGreaterOrEqual(Level.WARN)) {
      StringBuilder line = new StringBuilder()
          .append(event.getLevel()).append(' ').append(event.getLoggerName())
          .append(" [").append(event.getThreadName()).append("] ").append(event.getFormattedMessage());
      for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
        line.append(" | ").append(t.getClassName()).append(": ").append(t.getMessage());
      }
      warnings.add(line.toString());
    }
  }

  /** Every event recorded so far, of any level. */
  long events() {
    return events.get();
  }

  /** How often the client's own shutdown race (see the class comment) was logged. */
  long configShutdownRaces() {
    return configShutdownRaces.get();
  }

  /** The WARN lines recorded so far. */
  List<String> warnings() {
    return warnings.stream().filter(l -> l.startsWith("WARN ")).toList();
  }

  /** The ERROR lines recorded so far. */
  List<String> errors() {
    return warnings.stream().filter(l -> l.startsWith("ERROR ")).toList();
  }
}
