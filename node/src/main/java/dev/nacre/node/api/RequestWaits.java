package dev.nacre.node.api;

import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.WaitKind;

/**
 * What an HTTP request may wait for, which picks its workers (issue 11 §3): reads and ephemeral
 * writes go on while a majority is lost, and reads and CP writes go on while the member
 * responsible for some ephemeral writes does not answer. A request that waits only for a peer is
 * started on the event loop when its route answers through a future ({@code Router.addAsync}).
 */
public final class RequestWaits {
  private RequestWaits() {}

  /**
   * Reads wait only when asked to be linearizable; beats and the registration or removal of an
   * ephemeral instance (the default) wait for the responsible member; every other write changes
   * CP state (persistent instances, services, namespaces, clusters, overrides, switches).
   */
  public static WaitKind of(ApiRequest r) {
    if (r.method().equals("GET") || r.method().equals("HEAD")) {
      return r.param("consistency").filter("linearizable"::equals).isPresent() ? WaitKind.COMMIT : WaitKind.NOTHING;
    }
    String path = r.path();
    if (path.endsWith("/beat")) {
      return WaitKind.PEER;
    }
    boolean instanceWrite = path.endsWith("/instance") && (r.method().equals("POST") || r.method().equals("DELETE"));
    // Read as the handlers read it (anything but "true" is false, as in Nacos): a request that
    // waits only for a peer may start on the event loop.
    boolean persistent = !r.boolParam("ephemeral").orElse(true);
    return instanceWrite && !persistent ? WaitKind.PEER : WaitKind.COMMIT;
  }
}
