package dev.nacre.bench.peer;

import java.util.Collection;
import java.util.Set;

/**
 * One client of one registry: its own connection to one node, used by one thread, each call
 * synchronous (it returns when the system acknowledged it), as an application would use it.
 */
interface RegistryDriver extends AutoCloseable {
  void register(Instance instance) throws Exception;

  void deregister(Instance instance) throws Exception;

  /** The addresses ({@link Instance#address()}) the system lists for a service right now. */
  Set<String> query(String service) throws Exception;

  /**
   * Unmeasured set-up before instances of these services are written (ZooKeeper's parent znodes,
   * Nacos' health checker NONE for persistent services). Called on one client only.
   */
  default void prepare(Collection<String> services, boolean persistent) throws Exception {
  }

  @Override
  void close();
}
