package dev.nacre.client3;

import com.alibaba.nacos.api.NacosFactory;
import com.alibaba.nacos.api.config.ConfigService;
import com.alibaba.nacos.api.exception.NacosException;
import com.alibaba.nacos.api.naming.NamingService;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The 3.x clients a test class creates, each with nothing but a server address (the defaults a
 * Nacos 3 user has, so namespace {@code public}), all shut down together at the end.
 */
final class Client3Clients implements AutoCloseable {
  private final List<AutoCloseable> open = new ArrayList<>();

  ConfigService config(String serverAddr) throws NacosException {
    ConfigService c = NacosFactory.createConfigService(properties(serverAddr));
    open.add(c::shutDown);
    return c;
  }

  NamingService naming(String serverAddr) throws NacosException {
    NamingService n = NacosFactory.createNamingService(properties(serverAddr));
    open.add(n::shutDown);
    return n;
  }

  private static Properties properties(String serverAddr) {
    Properties p = new Properties();
    p.setProperty("serverAddr", serverAddr);
    return p;
  }

  /** Shuts every client down, newest first; the first failure is thrown after all were tried. */
  @Override
  public void close() throws Exception {
    Exception first = null;
    for (int i = open.size() - 1; i >= 0; i--) {
      try {
        open.get(i).close();
      } catch (Exception e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    open.clear();
    if (first != null) {
      throw first;
    }
  }
}
