package dev.nacre.node.status;

/**
 * What only the running node can count for Nacos' naming metrics ({@code /operator/metrics}):
 * each read when asked, never cached.
 */
public interface NodeCounts {
  /** Subscriptions held here: a client (gRPC or a 1.x UDP receiver) and a service each. */
  int subscriptions();

  /** Nacos 2.x clients connected here and registered. */
  int clients();

  /**
   * Instances this node answers for: ephemeral ones it owns, and persistent ones of the services
   * whose health it checks.
   */
  long responsibleInstances();
}
