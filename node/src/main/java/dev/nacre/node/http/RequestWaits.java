package dev.nacre.node.http;

import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.WaitKind;

/**
 * What an HTTP request may wait for, which picks its workers (issue 11 §3): reads go on while a
 * majority is lost. Ephemeral writes and beats, which wait for the member responsible for them,
 * never reach these workers: their routes answer through a future ({@code Router.addAsync}) and
 * start on the event loop, as persistent registrations and deregistrations do.
 */
public final class RequestWaits {
  private RequestWaits() {}

  /** Reads wait only when asked to be linearizable; a write may wait for a Raft commit. */
  public static WaitKind of(ApiRequest r) {
    if (r.method().equals("GET") || r.method().equals("HEAD")) {
      return r.param("consistency").filter("linearizable"::equals).isPresent() ? WaitKind.COMMIT : WaitKind.NOTHING;
    }
    return WaitKind.COMMIT;
  }
}
