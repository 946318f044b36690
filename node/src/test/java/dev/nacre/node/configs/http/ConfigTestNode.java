package dev.nacre.node.configs.http;

import dev.nacre.node.Node;
import dev.nacre.node.config.NodeConfig;
import dev.nacre.node.testkit.FreePorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

/** A standalone node on a fresh folder for the config HTTP tests, with a client of its HTTP port. */
final class ConfigTestNode implements AutoCloseable {
  final Node node;
  final ConfigClient client;
  private final Path dir;

  private ConfigTestNode(Path dir, Node node) {
    this.dir = dir;
    this.node = node;
    this.client = new ConfigClient(node.config().port());
  }

  /** Starts a node with {@code settings} beside the defaults (probes out of the way). */
  static ConfigTestNode start(Map<String, String> settings) throws IOException {
    Path dir = Files.createTempDirectory("nacre-config-http");
    Properties p = new Properties();
    p.setProperty(NodeConfig.PORT, String.valueOf(FreePorts.mainPort()));
    p.setProperty(NodeConfig.BIND, "127.0.0.1");
    p.setProperty(NodeConfig.DATA_DIR, dir.toString());
    p.setProperty("nacre.naming.probe.period-ms", String.valueOf(3_600_000));
    p.putAll(settings);
    return new ConfigTestNode(dir, Node.start(NodeConfig.from(p)));
  }

  /** Stops the node, then deletes its folder. */
  @Override
  public void close() throws IOException {
    try {
      node.close();
    } finally {
      try (Stream<Path> paths = Files.walk(dir)) {
        paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      }
    }
  }
}
