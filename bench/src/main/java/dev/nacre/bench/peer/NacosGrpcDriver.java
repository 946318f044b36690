package dev.nacre.bench.peer;

import com.alibaba.nacos.api.PropertyKeyConst;
import com.alibaba.nacos.api.exception.NacosException;
import com.alibaba.nacos.api.naming.NamingFactory;
import com.alibaba.nacos.api.naming.NamingService;
import java.util.Collection;
import java.util.HashSet;
import java.util.Properties;
import java.util.Set;

/**
 * Nacre through the official nacos-client 2.5.1 over gRPC: one NamingService (one gRPC
 * connection) per client. Ephemeral instances are tied to that connection, and the client keeps
 * one instance per service per connection, so the workload never gives a client two instances of
 * one service. Persistent ones go as PersistentInstanceRequest (Nacre advertises it). Queries are
 * {@code getAllInstances(service, subscribe=false)}: one ServiceQueryRequest each, no client cache.
 */
final class NacosGrpcDriver implements RegistryDriver {
  private final NamingService naming;
  private final NacosHttpDriver admin;

  NacosGrpcDriver(String hostPort) throws NacosException {
    Properties p = new Properties();
    p.setProperty(PropertyKeyConst.SERVER_ADDR, hostPort);
    p.setProperty(PropertyKeyConst.NAMING_LOAD_CACHE_AT_START, "false");
    this.naming = NamingFactory.createNamingService(p);
    this.admin = new NacosHttpDriver(hostPort);
  }

  @Override
  public void register(Instance instance) throws NacosException {
    naming.registerInstance(instance.service(), toNacos(instance));
  }

  @Override
  public void deregister(Instance instance) throws NacosException {
    naming.deregisterInstance(instance.service(), toNacos(instance));
  }

  @Override
  public Set<String> query(String service) throws NacosException {
    Set<String> addresses = new HashSet<>();
    for (com.alibaba.nacos.api.naming.pojo.Instance i : naming.getAllInstances(service, false)) {
      addresses.add(i.getIp() + ":" + i.getPort());
    }
    return addresses;
  }

  /** The health checker is a service setting, which the client API does not reach: HTTP does it. */
  @Override
  public void prepare(Collection<String> services, boolean persistent) throws Exception {
    admin.prepare(services, persistent);
  }

  private static com.alibaba.nacos.api.naming.pojo.Instance toNacos(Instance instance) {
    com.alibaba.nacos.api.naming.pojo.Instance i = new com.alibaba.nacos.api.naming.pojo.Instance();
    i.setIp(instance.ip());
    i.setPort(instance.port());
    i.setEphemeral(instance.ephemeral());
    return i;
  }

  @Override
  public void close() {
    admin.close();
    try {
      naming.shutDown();
    } catch (NacosException e) {
      System.out.println("nacos-client shutdown: " + e);
    }
  }
}
