package dev.nacre.dubbo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;

/**
 * A Dubbo application as a user writes one with the API configuration: one registry address
 * {@code nacos://127.0.0.1:P} and Dubbo's defaults, so that the registry doubles as configuration
 * centre and metadata centre. Run as a child JVM by {@link DubboProcess}.
 *
 * <p>Arguments: {@code provider|consumer registryAddress centres calls runSeconds}, where
 * {@code centres} is {@code defaults} or {@code naming-only} (the registry used as neither
 * configuration nor metadata centre). Prints, each on a line of its own: {@code STARTED
 * bootstrapMs=B sinceJvmStartMs=J} once started; the consumer then {@code CALLS_OK N} after N
 * successful calls, keeps calling once a second for {@code runSeconds}, stops and exits; the
 * provider stops and exits when its standard input says {@code stop} or closes.
 */
public final class DubboApp {
  static final String PROVIDER_APP = "nacre-dubbo-provider";
  static final String CONSUMER_APP = "nacre-dubbo-consumer";

  private DubboApp() {}

  public static void main(String[] args) throws Exception {
    String role = args[0];
    String registryAddress = args[1];
    boolean namingOnly = args[2].equals("naming-only");
    int calls = Integer.parseInt(args[3]);
    int runSeconds = Integer.parseInt(args[4]);

    ApplicationConfig application = new ApplicationConfig(role.equals("provider") ? PROVIDER_APP : CONSUMER_APP);
    // QoS would listen on 22222 in both processes: not what is tested here.
    application.setQosEnable(false);
    RegistryConfig registry = new RegistryConfig(registryAddress);
    if (namingOnly) {
      registry.setUseAsConfigCenter(false);
      registry.setUseAsMetadataCenter(false);
    }
    DubboBootstrap bootstrap = DubboBootstrap.getInstance().application(application).registry(registry);

    if (role.equals("provider")) {
      ServiceConfig<GreetingService> service = new ServiceConfig<>();
      service.setInterface(GreetingService.class);
      service.setRef(name -> "hello " + name + " from " + PROVIDER_APP);
      // No host: Dubbo refuses loopback addresses (NetUtils.isInvalidLocalHost) and binds and registers
      // this machine's own interface address, so the calls stay on this machine.
      ProtocolConfig protocol = new ProtocolConfig("dubbo", freeLoopbackPort());
      bootstrap.protocol(protocol).service(service);
      started(bootstrap);
      BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      String line;
      do {
        line = stdin.readLine();
      } while (line != null && !line.strip().equals("stop"));
    } else {
      ReferenceConfig<GreetingService> reference = new ReferenceConfig<>();
      reference.setInterface(GreetingService.class);
      bootstrap.reference(reference);
      started(bootstrap);
      GreetingService greetings = bootstrap.getCache().get(reference);
      for (int i = 0; i < calls; i++) {
        String answer = greetings.greet("call " + i);
        if (!answer.equals("hello call " + i + " from " + PROVIDER_APP)) {
          throw new IllegalStateException("call " + i + " answered " + answer);
        }
      }
      System.out.println("CALLS_OK " + calls);
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(runSeconds);
      int extra = 0;
      while (System.nanoTime() < end) {
        // Paced calls for the run's length: the point is a steady, quiet run, not load.
        TimeUnit.SECONDS.sleep(1);
        greetings.greet("tick " + extra++);
      }
      System.out.println("CALLS_OK " + (calls + extra));
    }
    bootstrap.stop();
    System.out.println("STOPPED");
    System.exit(0);
  }

  private static void started(DubboBootstrap bootstrap) {
    long t0 = System.nanoTime();
    bootstrap.start();
    long bootstrapMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    long sinceJvmStart = System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime();
    System.out.println("STARTED bootstrapMs=" + bootstrapMs + " sinceJvmStartMs=" + sinceJvmStart);
  }

  private static int freeLoopbackPort() throws IOException {
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      return s.getLocalPort();
    }
  }
}
