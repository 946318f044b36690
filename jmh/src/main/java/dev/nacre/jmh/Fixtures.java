package dev.nacre.jmh;

import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import java.util.Map;

/** Instances shaped like a typical registration (two metadata entries), shared by the benchmarks. */
final class Fixtures {
  static final ServiceKey SERVICE = new ServiceKey("public", "DEFAULT_GROUP", "orders");

  private Fixtures() {}

  /** The {@code n}th instance of {@link #SERVICE}: distinct addresses spread over 10.x.y.z. */
  static Instance instance(int n, double weight, boolean ephemeral) {
    return instance(SERVICE, n, weight, ephemeral);
  }

  /** The {@code n}th instance of {@code service}: distinct addresses spread over 10.x.y.z. */
  static Instance instance(ServiceKey service, int n, double weight, boolean ephemeral) {
    String ip = "10." + (n >> 16 & 0xff) + "." + (n >> 8 & 0xff) + "." + (n & 0xff);
    InstanceKey key = new InstanceKey(service, InstanceKey.DEFAULT_CLUSTER, ip, 8080);
    return new Instance(key, weight, true, true, ephemeral,
        Map.of("version", "1.4.2", "zone", "zone-" + (n % 3)));
  }
}
