package dev.nacre.node;

import dev.nacre.node.cluster.MemberFile;
import dev.nacre.node.config.ClientSettings;
import dev.nacre.node.config.NodeConfig;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code java -jar nacre-node.jar}: runs one node until it is stopped. */
@Command(
    name = "nacre",
    mixinStandardHelpOptions = true,
    version = "Nacre 0.1.0",
    description = "Runs one Nacre node: the Nacos naming Open API on HTTP, persistent data in Raft and RocksDB.")
public final class Main implements Callable<Integer> {

  @Option(names = "--config", description = "Properties file with nacre.* settings.")
  Path config;

  @Option(names = "--port", description = "Main (HTTP) port P; Raft uses P-1000. Default 8848.")
  Integer port;

  @Option(names = "--bind", description = "Address to listen on. Default 127.0.0.1.")
  String bind;

  @Option(names = "--host", description = "Address other members and clients reach this node at. Default: the bind address, or 127.0.0.1 when binding all interfaces.")
  String host;

  @Option(names = "--data-dir", description = "Folder for RocksDB and the Raft log. Default ./data.")
  Path dataDir;

  @Option(names = "--members", description = "Every member's host:port (main port), comma-separated, this node included.")
  String members;

  @Option(names = "--cluster-conf", description = "Nacos' cluster.conf: one member host:port a line, # for comments."
      + " Rewritten whenever the members change.")
  Path clusterConf;

  @Option(names = "--auth", description = "Client authentication on (nacos.core.auth.enabled=true); needs"
      + " nacos.core.auth.plugin.nacos.token.secret.key in the --config file.")
  boolean auth;

  @Option(names = "-D", paramLabel = "key=value", description = "Any nacre.* setting, e.g. -Dnacre.cp.timeout-ms=5000.")
  java.util.Map<String, String> settings = new java.util.HashMap<>();

  public static void main(String[] args) {
    allowNettyUnzeroedDirectMemory();
    shareFewerTransportThreads();
    System.exit(new CommandLine(new Main()).execute(args));
  }

  /**
   * Netty (Ratis' shaded copy, under every gRPC port) takes its pooled direct memory in 4 MiB
   * chunks. Unless it may reach {@code java.nio}'s direct buffer constructor (opened to it by this
   * jar's {@code Add-Opens}), it gets each chunk from {@code ByteBuffer.allocateDirect}, which zeroes
   * it first: about a twentieth of a restart's CPU went to zeroing the first chunks of its arenas,
   * which Netty never reads before writing (docs/PERFORMANCE.md, "Restart"). Set before any Netty
   * class loads; an explicit setting wins.
   */
  static void allowNettyUnzeroedDirectMemory() {
    String key = "org.apache.ratis.thirdparty.io.netty.tryReflectionSetAccessible";
    if (System.getProperty(key) == null) {
      System.setProperty(key, "true");
    }
  }

  /**
   * gRPC's shared transport threads, which carry the Raft port, the peer port and their channels:
   * half the processors, at least one, the client port's rule ({@link ClientSettings#defaultIoThreads}),
   * instead of Netty's two per processor. Every Raft entry and every forward wakes one of them; with
   * fewer, each wake-up finds more to do. On two cores, one thread instead of four took a fifth less
   * server CPU per persistent write (docs/PERFORMANCE.md, "one shared transport thread per two
   * processors"). JVM-wide, so set here, before any Netty class loads; an explicit setting wins.
   */
  static void shareFewerTransportThreads() {
    String key = "org.apache.ratis.thirdparty.io.netty.eventLoopThreads";
    if (System.getProperty(key) == null) {
      System.setProperty(key, Integer.toString(ClientSettings.defaultIoThreads()));
    }
  }

  /** The members of Nacos' cluster.conf {@code file}, comma-separated. */
  static String readClusterConf(Path file) {
    try {
      return String.join(",", MemberFile.read(file));
    } catch (java.io.UncheckedIOException e) {
      throw new IllegalArgumentException("cannot read --cluster-conf " + file + ": " + e.getCause().getMessage(), e);
    }
  }

  @Override
  public Integer call() throws Exception {
    Properties props = new Properties();
    if (config != null) {
      try (Reader reader = Files.newBufferedReader(config)) {
        props.load(reader);
      } catch (IOException e) {
        throw new IllegalArgumentException("cannot read --config " + config + ": " + e.getMessage(), e);
      }
    }
    props.putAll(settings);
    if (port != null) {
      props.setProperty(NodeConfig.PORT, port.toString());
    }
    if (bind != null) {
      props.setProperty(NodeConfig.BIND, bind);
    }
    if (host != null) {
      props.setProperty(NodeConfig.HOST, host);
    }
    if (clusterConf != null) {
      props.setProperty(NodeConfig.MEMBERS, readClusterConf(clusterConf));
      props.setProperty(NodeConfig.CLUSTER_CONF, clusterConf.toString());
    }
    if (members != null) {
      props.setProperty(NodeConfig.MEMBERS, members);
    }
    if (dataDir != null) {
      props.setProperty(NodeConfig.DATA_DIR, dataDir.toString());
    }
    if (auth) {
      props.setProperty(dev.nacre.node.config.AuthSettings.ENABLED, "true");
    }
    NodeConfig nodeConfig = NodeConfig.from(props);
    Node node = Node.start(nodeConfig);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      node.close();
      stopped.countDown();
    }, "nacre-shutdown"));
    stopped.await();
    return 0;
  }
}
