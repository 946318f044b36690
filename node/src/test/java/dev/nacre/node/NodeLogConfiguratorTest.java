package dev.nacre.node;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;

class NodeLogConfiguratorTest {

  @Test
  void logbackFindsItAsAService() {
    assertThat(ServiceLoader.load(Configurator.class).stream().map(ServiceLoader.Provider::type))
        .contains(NodeLogConfigurator.class);
  }

  @Test
  void withoutAConfigurationFileLogsToTheConsoleAndABoundedRollingFile(@TempDir Path logs) throws Exception {
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(new LogbackMDCAdapter()); // as logback's own start gives its context
    NodeLogConfigurator configurator = new NodeLogConfigurator(false, name -> false, logs.toString());
    configurator.setContext(context);

    assertThat(configurator.configure(context)).isEqualTo(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
    ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    assertThat(root.getLevel()).isEqualTo(Level.INFO);
    assertThat(root.getAppender("CONSOLE")).isNotNull();
    RollingFileAppender<?> file = (RollingFileAppender<?>) root.getAppender("FILE");
    SizeAndTimeBasedRollingPolicy<?> rolling = (SizeAndTimeBasedRollingPolicy<?>) file.getRollingPolicy();
    assertThat(rolling.getMaxHistory()).isEqualTo(7);
    assertThat(rolling.getFileNamePattern()).isEqualTo(logs + "/nacre.%d{yyyy-MM-dd}.%i.log.gz");
    assertThat(context.getLogger("org.apache.ratis").getLevel()).isEqualTo(Level.WARN);
    assertThat(context.getLogger("org.apache.ratis.client.impl.OrderedAsync").getLevel()).isEqualTo(Level.OFF);
    assertThat(context.getLogger("io.netty").getLevel()).isEqualTo(Level.WARN);

    context.getLogger("dev.nacre.test").info("written to the file");
    context.getLogger("org.apache.ratis.server").info("below WARN: not written");
    context.stop();
    String written = Files.readString(logs.resolve("nacre.log"));
    assertThat(written).containsPattern("\\d{4}-\\d{2}-\\d{2} [\\d:.]+ INFO  \\[[^]]+\\] \\[\\] dev.nacre.test - "
        + "written to the file").doesNotContain("below WARN");
  }

  @Test
  void aConfigurationFileOnTheClassPathWins(@TempDir Path logs) {
    for (String file : new String[] {"logback.xml", "logback-test.xml"}) {
      LoggerContext context = new LoggerContext();
      NodeLogConfigurator configurator = new NodeLogConfigurator(false, file::equals, logs.toString());
      configurator.setContext(context);

      assertThat(configurator.configure(context)).as(file).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
      assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).iteratorForAppenders().hasNext()).as(file).isFalse();
    }
  }

  @Test
  void aNamedConfigurationFileWins(@TempDir Path logs) {
    LoggerContext context = new LoggerContext();
    NodeLogConfigurator configurator = new NodeLogConfigurator(true, name -> false, logs.toString());
    configurator.setContext(context);

    assertThat(configurator.configure(context)).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
    assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).iteratorForAppenders().hasNext()).isFalse();
  }
}
