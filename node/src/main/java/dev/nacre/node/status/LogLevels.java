package dev.nacre.node.status;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import java.util.Map;
import org.slf4j.LoggerFactory;

/**
 * Changes log levels at run time. Accepts Nacos' log names (naming-server, naming-raft, ...) and
 * the names of loggers that already exist (a class's, or a package of one); any other name is
 * refused, so that requests cannot create loggers without bound.
 */
public final class LogLevels {
  private static final Map<String, String> NACOS_NAMES = Map.of(
      "naming-server", "dev.nacre.naming",
      "naming-push", "dev.nacre.naming.push",
      "naming-raft", "dev.nacre.consensus.raft",
      "naming-distro", "dev.nacre.consensus.distro",
      "naming-event", "dev.nacre.naming",
      "naming-performance", "dev.nacre.node",
      "naming-rt", "dev.nacre.node.http",
      "nacos-cluster", "dev.nacre.node.cluster",
      "root", org.slf4j.Logger.ROOT_LOGGER_NAME);

  private LogLevels() {}

  /** Returns the logger name that changed. */
  public static String set(String logName, String levelName) {
    Level level = Level.toLevel(levelName, null);
    if (level == null) {
      throw new IllegalArgumentException("Param 'logLevel' must be one of TRACE, DEBUG, INFO, WARN, ERROR, OFF; got '" + levelName + "'");
    }
    String loggerName = NACOS_NAMES.getOrDefault(logName, logName);
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      throw new IllegalStateException("logging is not backed by logback; cannot change levels at run time");
    }
    ch.qos.logback.classic.Logger logger = context.exists(loggerName);
    if (logger == null) {
      throw new IllegalArgumentException("Param 'logName' must be one of " + new java.util.TreeSet<>(NACOS_NAMES.keySet())
          + " or the name of a logger of this server (a class or package such as dev.nacre.naming); got '"
          + logName + "'");
    }
    logger.setLevel(level);
    return loggerName;
  }
}
