package dev.nacre.node;

import dev.nacre.node.testkit.FreePorts;
import dev.nacre.node.testkit.Http;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nacre.node.config.NodeConfig;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/** A real node in this JVM on loopback ports, with its data in a test folder. */
final class TestNode implements AutoCloseable {
  static final String NS = "/nacos/v1/ns";
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final Properties props;
  private Node node;
  final Http http;

  private TestNode(Properties props) {
    this.props = props;
    this.node = Node.start(NodeConfig.from(props));
    this.http = new Http("http://127.0.0.1:" + props.getProperty(NodeConfig.PORT));
  }

  static TestNode start(Path dataDir, Map<String, String> overrides) {
    Properties p = new Properties();
    p.setProperty(NodeConfig.PORT, String.valueOf(FreePorts.mainPort()));
    p.setProperty(NodeConfig.BIND, "127.0.0.1");
    p.setProperty(NodeConfig.DATA_DIR, dataDir.toString());
    // Probes would mark the tests' persistent instances unhealthy; the probe test turns them on.
    p.setProperty("nacre.naming.probe.period-ms", String.valueOf(3_600_000));
    p.putAll(overrides);
    return new TestNode(p);
  }

  static TestNode start(Path dataDir) {
    return start(dataDir, Map.of());
  }

  /** Stops the node and starts a new one on the same folder and ports. */
  void restart() {
    node.close();
    node = Node.start(NodeConfig.from(props));
  }

  Node node() {
    return node;
  }

  static JsonNode json(Http.Response r) {
    try {
      return MAPPER.readTree(r.body());
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new UncheckedIOException("not JSON (status " + r.status() + "): " + r.body(), e);
    }
  }

  /** {@code /instance/list} for a service, parsed. */
  JsonNode list(String service, Map<String, String> extra) {
    Map<String, String> params = new java.util.HashMap<>(extra);
    params.put("serviceName", service);
    Http.Response r = http.get(NS + "/instance/list", params);
    if (r.status() != 200) {
      throw new AssertionError("list " + service + " answered " + r.status() + ": " + r.body());
    }
    return json(r);
  }

  JsonNode list(String service) {
    return list(service, Map.of());
  }

  @Override
  public void close() {
    node.close();
  }
}
