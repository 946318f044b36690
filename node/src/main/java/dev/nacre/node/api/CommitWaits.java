package dev.nacre.node.api;

import dev.nacre.node.http.ApiRequest;

/**
 * Which HTTP requests may wait for a Raft commit (up to the CP timeout when the group has no
 * quorum): they run on their own workers, so that reads and ephemeral writes go on while a
 * majority is lost (issue 11 §3). A wrong guess only picks the other pool; nothing else depends
 * on it.
 */
public final class CommitWaits {
  private CommitWaits() {}

  /**
   * Reads wait only when asked to be linearizable; beats and the registration or removal of an
   * ephemeral instance (the default) are AP; every other write changes CP state (persistent
   * instances, services, namespaces, clusters, overrides, switches).
   */
  public static boolean mayWait(ApiRequest r) {
    if (r.method().equals("GET") || r.method().equals("HEAD")) {
      return r.param("consistency").filter("linearizable"::equals).isPresent();
    }
    String path = r.path();
    if (path.endsWith("/beat")) {
      return false;
    }
    boolean instanceWrite = path.endsWith("/instance") && (r.method().equals("POST") || r.method().equals("DELETE"));
    return !instanceWrite || r.param("ephemeral").filter("false"::equalsIgnoreCase).isPresent();
  }
}
