package dev.nacre.cluster;

import com.alibaba.nacos.api.NacosFactory;
import com.alibaba.nacos.api.PropertyKeyConst;
import com.alibaba.nacos.api.config.ConfigService;
import com.alibaba.nacos.api.exception.NacosException;
import com.alibaba.nacos.api.naming.NamingFactory;
import com.alibaba.nacos.api.naming.NamingService;
import com.alibaba.nacos.api.naming.pojo.Instance;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/** Official Nacos 2.x clients (naming and configuration) for tests, closed together. */
final class NacosClients implements AutoCloseable {
  private final List<NamingService> open = new ArrayList<>();
  private final List<ConfigService> openConfigs = new ArrayList<>();

  /** A client whose server list is {@code mainAddresses} ({@code host:port}, HTTP ports). */
  NamingService connect(String... mainAddresses) {
    return connect(new Properties(), mainAddresses);
  }

  /** A client that logs in as {@code username} (client authentication on the servers). */
  NamingService connectAs(String username, String password, String... mainAddresses) {
    Properties p = new Properties();
    p.setProperty(PropertyKeyConst.USERNAME, username);
    p.setProperty(PropertyKeyConst.PASSWORD, password);
    return connect(p, mainAddresses);
  }

  private NamingService connect(Properties settings, String... mainAddresses) {
    Properties p = new Properties();
    p.putAll(settings);
    p.setProperty(PropertyKeyConst.SERVER_ADDR, String.join(",", mainAddresses));
    try {
      NamingService ns = NamingFactory.createNamingService(p);
      open.add(ns);
      return ns;
    } catch (NacosException e) {
      throw new IllegalStateException("Nacos client for " + List.of(mainAddresses) + ": " + e, e);
    }
  }

  /** A configuration client of {@code namespace} (null: the public one) on {@code mainAddresses}. */
  ConfigService config(String namespace, String... mainAddresses) {
    Properties p = new Properties();
    p.setProperty(PropertyKeyConst.SERVER_ADDR, String.join(",", mainAddresses));
    if (namespace != null) {
      p.setProperty(PropertyKeyConst.NAMESPACE, namespace);
    }
    try {
      ConfigService c = NacosFactory.createConfigService(p);
      openConfigs.add(c);
      return c;
    } catch (NacosException e) {
      throw new IllegalStateException("Nacos config client for " + List.of(mainAddresses) + ": " + e, e);
    }
  }

  static Instance instance(int port, String cluster, double weight, Map<String, String> metadata) {
    Instance i = new Instance();
    i.setIp("127.0.0.1");
    i.setPort(port);
    i.setWeight(weight);
    if (cluster != null) {
      i.setClusterName(cluster);
    }
    i.setMetadata(new java.util.HashMap<>(metadata));
    return i;
  }

  static List<String> addresses(List<Instance> instances) {
    return instances.stream().map(i -> i.getIp() + ":" + i.getPort()).sorted().toList();
  }

  @Override
  public void close() {
    for (NamingService ns : open) {
      try {
        ns.shutDown();
      } catch (NacosException | RuntimeException e) {
        // Best effort: the test is over.
      }
    }
    open.clear();
    for (ConfigService c : openConfigs) {
      try {
        c.shutDown();
      } catch (NacosException | RuntimeException e) {
        // Best effort: the test is over.
      }
    }
    openConfigs.clear();
  }
}
