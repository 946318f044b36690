package dev.nacre.node.client;

/** Told of every answered client request (gRPC, {@code /Request/request}): for the meters. */
@FunctionalInterface
public interface ClientRequestObserver {
  ClientRequestObserver NONE = (type, errorCode, nanos) -> {};

  /**
   * @param type the request type, or "other" for one this port does not know
   * @param errorCode Nacos' error code of the answer, 0 when it succeeded
   * @param nanos from the request's arrival to its answer (waits for a CP write included)
   */
  void answered(String type, int errorCode, long nanos);
}
