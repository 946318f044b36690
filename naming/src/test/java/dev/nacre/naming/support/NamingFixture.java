package dev.nacre.naming.support;

import dev.nacre.naming.api.NamingConfig;
import dev.nacre.naming.ephemeral.EphemeralStore;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.operations.RegistryOperations;
import dev.nacre.naming.support.NamingMachine;
import dev.nacre.naming.registry.RegistryIndex;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

/** One node's naming module wired the way {@code node} will wire it, on a real RocksDB folder. */
public final class NamingFixture implements AutoCloseable {
  public static final ServiceKey SERVICE = new ServiceKey("public", "DEFAULT_GROUP", "orders");

  /** The RocksDB folder it opened, for a test that opens it again. */
  public final Path dir;
  public final NamingConfig config;
  public final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  public final RegistryIndex index = new RegistryIndex();
  public final NamingMachine stateMachine;
  public final DirectReplicatedLog log;
  public final EphemeralStore ephemeral;
  public final RegistryOperations ops;

  public NamingFixture(Path dir) {
    this(dir, NamingConfig.defaults());
  }

  public NamingFixture(Path dir, NamingConfig config) {
    this.dir = dir;
    this.config = config;
    this.stateMachine = NamingMachine.open(dir, index);
    this.log = new DirectReplicatedLog(stateMachine);
    this.ephemeral = new EphemeralStore("node-1", clock, index);
    this.ops = new RegistryOperations(config, clock, log, index, ephemeral);
  }

  public static InstanceKey key(String ip, int port) {
    return new InstanceKey(SERVICE, "DEFAULT", ip, port);
  }

  public static Instance instance(String ip, int port, boolean ephemeral) {
    return new Instance(key(ip, port), 1.0, true, true, ephemeral, Map.of());
  }

  @Override
  public void close() {
    stateMachine.close();
  }
}
