package dev.nacre.config.support;

import dev.nacre.config.Config;
import dev.nacre.config.ConfigSettings;
import dev.nacre.config.api.ConfigOperations;
import dev.nacre.consensus.state.DomainStateMachine;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/** One member's config service on a state machine of its own in {@code dir}, with a {@link DirectLog}. */
public final class ConfigNode implements AutoCloseable {
  public final Config config;
  public final DomainStateMachine machine;
  public final DirectLog log;

  private ConfigNode(Config config, DomainStateMachine machine) {
    this.config = config;
    this.machine = machine;
    this.log = new DirectLog(machine);
    config.attach(log);
  }

  public static ConfigNode open(Path dir, ConfigSettings settings, Clock clock) {
    Config config = Config.open("test", settings, clock);
    return new ConfigNode(config, DomainStateMachine.open(dir, List.of(config.domain())));
  }

  public ConfigOperations ops() {
    return config.operations();
  }

  @Override
  public void close() {
    config.close();
    machine.close();
  }
}
