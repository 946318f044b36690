package dev.nacre.cluster;

import com.alibaba.nacos.api.PropertyKeyConst;
import com.alibaba.nacos.api.naming.NamingFactory;
import com.alibaba.nacos.api.naming.NamingService;
import com.alibaba.nacos.api.naming.pojo.Instance;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

/**
 * A Nacos client in its own JVM, for tests that kill it: registers one ephemeral instance
 * ({@code args: serverAddr service port}), prints {@code REGISTERED}, and waits to be killed.
 */
public final class ClientProcessMain {
  private ClientProcessMain() {}

  public static void main(String[] args) throws Exception {
    Properties p = new Properties();
    p.setProperty(PropertyKeyConst.SERVER_ADDR, args[0]);
    NamingService naming = NamingFactory.createNamingService(p);
    Instance instance = new Instance();
    instance.setIp("127.0.0.1");
    instance.setPort(Integer.parseInt(args[2]));
    naming.registerInstance(args[1], instance);
    System.out.println("REGISTERED");
    System.out.flush();
    new CountDownLatch(1).await();
  }
}
