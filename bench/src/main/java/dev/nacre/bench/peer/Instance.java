package dev.nacre.bench.peer;

/**
 * One service instance as every system stores it: a service name and an address. Which system
 * gets it decides how it is written (a Nacos instance, a znode, an etcd key).
 */
record Instance(String service, String ip, int port, boolean ephemeral) {
  /** How an instance is named inside a service, and what a query returns per instance. */
  String address() {
    return ip + ":" + port;
  }

  /** The small value ZooKeeper and etcd store per instance (Nacos keeps its own fields). */
  byte[] payload() {
    return ("{\"ip\":\"" + ip + "\",\"port\":" + port + ",\"weight\":1.0,\"healthy\":true,\"ephemeral\":"
        + ephemeral + "}").getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }
}
