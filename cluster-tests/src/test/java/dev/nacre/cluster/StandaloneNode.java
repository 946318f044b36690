package dev.nacre.cluster;

import dev.nacre.node.Node;
import dev.nacre.node.config.NodeConfig;
import dev.nacre.node.testkit.FreePorts;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/**
 * One node on its own (no other members) on a free loopback port, for the tests of the official
 * client against a single server, which each built the same settings.
 */
final class StandaloneNode {
  private StandaloneNode() {}

  /** Starts it with its data in {@code dataDir}, health probes off, and {@code settings} on top. */
  static Node start(Path dataDir, Map<String, String> settings) {
    Properties p = new Properties();
    p.setProperty(NodeConfig.PORT, String.valueOf(FreePorts.mainPort()));
    p.setProperty(NodeConfig.DATA_DIR, dataDir.toString());
    p.setProperty(NodeConfig.PROBE_PERIOD, "3600000");
    p.putAll(settings);
    return Node.start(NodeConfig.from(p));
  }

  /** Its main (HTTP) address as a client's server list names it. */
  static String address(Node node) {
    return "127.0.0.1:" + node.httpAddress().getPort();
  }
}
