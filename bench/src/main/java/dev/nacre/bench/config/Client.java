package dev.nacre.bench.config;

import com.alibaba.nacos.api.PropertyKeyConst;
import com.alibaba.nacos.api.config.ConfigFactory;
import com.alibaba.nacos.api.config.ConfigService;
import com.alibaba.nacos.api.exception.NacosException;
import com.alibaba.nacos.api.naming.NamingFactory;
import com.alibaba.nacos.api.naming.NamingService;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * One application's official nacos-client 2.5.1 services on one member: a ConfigService and a
 * NamingService, each with its own gRPC connection. Used by one thread at a time.
 */
record Client(ConfigService config, NamingService naming) implements AutoCloseable {

  static Client open(String hostPort, boolean withNaming) throws NacosException {
    Properties p = properties(hostPort);
    p.setProperty(PropertyKeyConst.NAMING_LOAD_CACHE_AT_START, "false");
    return new Client(ConfigFactory.createConfigService(properties(hostPort)),
        withNaming ? NamingFactory.createNamingService(p) : null);
  }

  private static Properties properties(String hostPort) {
    Properties p = new Properties();
    p.setProperty(PropertyKeyConst.SERVER_ADDR, hostPort);
    return p;
  }

  /** {@code count} clients, client c on {@code nodes.get(c % n)}, opened {@code parallel} at a time. */
  static List<Client> openAll(List<String> nodes, int count, boolean withNaming, int parallel) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(parallel);
    try {
      List<Future<Client>> opened = new ArrayList<>();
      for (int c = 0; c < count; c++) {
        String node = nodes.get(c % nodes.size());
        opened.add(pool.submit(() -> open(node, withNaming)));
      }
      List<Client> out = new ArrayList<>();
      for (Future<Client> f : opened) {
        out.add(f.get(2, TimeUnit.MINUTES));
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  static void closeAll(List<Client> clients) {
    ExecutorService pool = Executors.newFixedThreadPool(16);
    clients.forEach(c -> pool.submit(c::close));
    pool.shutdown();
    try {
      if (!pool.awaitTermination(2, TimeUnit.MINUTES)) {
        System.out.println("  some nacos-client shutdowns still run after 2 minutes; left to the JVM's exit");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    try {
      config.shutDown();
      if (naming != null) {
        naming.shutDown();
      }
    } catch (NacosException e) {
      System.out.println("nacos-client shutdown: " + e);
    }
  }
}
