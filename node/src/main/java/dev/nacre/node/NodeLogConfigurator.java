package dev.nacre.node;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy;
import ch.qos.logback.core.spi.ContextAwareBase;
import ch.qos.logback.core.util.FileSize;
import java.util.function.Predicate;
import org.slf4j.Logger;

/**
 * A node's logging, set up in code (logback finds this class as a service) rather than read from
 * a {@code logback.xml}: interpreting an XML configuration took about 65 ms more of every start.
 * Console, and a file under {@code -Dnacre.logs.dir} (default {@code logs}) rolled daily and at
 * 50 MB, kept 7 days and 500 MB at most (bounded: Nacos' unbounded access logs filled disks).
 *
 * <p>A configuration file wins: given with {@code -Dlogback.configurationFile}, or a
 * {@code logback.xml} or {@code logback-test.xml} on the class path (tests, benchmark drivers),
 * logback reads it as usual.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_LOW_PRIORITY)
public final class NodeLogConfigurator extends ContextAwareBase implements Configurator {
  private static final String[] CONFIGURATION_FILES = {"logback-test.xml", "logback.xml"};

  private final boolean fileNamed;
  private final Predicate<String> onClassPath;
  private final String logsDir;

  public NodeLogConfigurator() {
    this(System.getProperty("logback.configurationFile") != null,
        name -> NodeLogConfigurator.class.getClassLoader().getResource(name) != null,
        System.getProperty("nacre.logs.dir", "logs"));
  }

  /**
   * @param fileNamed whether a configuration file was given ({@code -Dlogback.configurationFile})
   * @param onClassPath whether a resource of that name is on the class path
   * @param logsDir the log file's folder
   */
  NodeLogConfigurator(boolean fileNamed, Predicate<String> onClassPath, String logsDir) {
    this.fileNamed = fileNamed;
    this.onClassPath = onClassPath;
    this.logsDir = logsDir;
  }

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (fileNamed) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    for (String file : CONFIGURATION_FILES) {
      if (onClassPath.test(file)) {
        return ExecutionStatus.INVOKE_NEXT_IF_ANY;
      }
    }
    ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.INFO);
    root.addAppender(console(context));
    root.addAppender(file(context, logsDir));
    context.getLogger("org.apache.ratis").setLevel(Level.WARN);
    // Logs every client retry through an election at ERROR; the log itself reports real failures.
    context.getLogger("org.apache.ratis.client.impl.OrderedAsync").setLevel(Level.OFF);
    context.getLogger("io.netty").setLevel(Level.WARN);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  private static Appender<ILoggingEvent> console(LoggerContext context) {
    ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
    console.setContext(context);
    console.setName("CONSOLE");
    console.setEncoder(encoder(context, "%d{HH:mm:ss.SSS} %-5level [%X{node:-}] %logger{24} - %msg%n"));
    console.start();
    return console;
  }

  private static Appender<ILoggingEvent> file(LoggerContext context, String dir) {
    RollingFileAppender<ILoggingEvent> file = new RollingFileAppender<>();
    file.setContext(context);
    file.setName("FILE");
    file.setFile(dir + "/nacre.log");
    SizeAndTimeBasedRollingPolicy<ILoggingEvent> rolling = new SizeAndTimeBasedRollingPolicy<>();
    rolling.setContext(context);
    rolling.setParent(file);
    rolling.setFileNamePattern(dir + "/nacre.%d{yyyy-MM-dd}.%i.log.gz");
    rolling.setMaxFileSize(FileSize.valueOf("50MB"));
    rolling.setMaxHistory(7);
    rolling.setTotalSizeCap(FileSize.valueOf("500MB"));
    rolling.start();
    file.setRollingPolicy(rolling);
    file.setEncoder(encoder(context, "%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level [%thread] [%X{node:-}] %logger - %msg%n"));
    file.start();
    return file;
  }

  private static PatternLayoutEncoder encoder(LoggerContext context, String pattern) {
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(pattern);
    encoder.start();
    return encoder;
  }
}
