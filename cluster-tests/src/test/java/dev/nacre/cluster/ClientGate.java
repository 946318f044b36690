package dev.nacre.cluster;

import dev.nacre.node.http.HttpGate;

/**
 * Decides the fate of each client request arriving at a node, and of its answer, in the HTTP
 * port's terms ({@link HttpGate.Decision}) for every client transport: the harness
 * implements it ({@link ClientFaults}) to make a node unreachable for clients, or to freeze its
 * client traffic as in a long GC pause. {@link FaultSeams} puts it into a node: as the HTTP port's
 * {@code HttpGate} and, through {@link ClientGateInterceptor}, on the client gRPC port.
 *
 * <p>Every client transport consults the gate for each request on arrival, before anything else
 * (decoding errors included), and again just before writing the answer:
 * <ul>
 *   <li>{@link HttpGate.Action#PASS}: handle the request / write the answer now;
 *   <li>{@link HttpGate.Action#RESET}: the request is not handled and no answer is sent; the connection
 *       ends as it would when the host's process is gone. HTTP resets the TCP connection (RST,
 *       no response bytes); a gRPC server interceptor closes the call with {@code UNAVAILABLE}
 *       before the service sees it (or, for an answer, instead of it);
 *   <li>{@link HttpGate.Action#HOLD}: handle the request / write the answer after {@link HttpGate.Decision#hold()},
 *       without asking the gate again. A transport holds without blocking the connection's I/O
 *       when it can (HTTP schedules the work later), otherwise by parking the delivering thread.
 * </ul>
 *
 * <p>Implementations must be thread-safe and fast: they run on transport threads for every
 * request.
 */
public interface ClientGate {

  /** Lets everything through. */
  ClientGate OPEN = node -> HttpGate.Decision.PASS;

  /** The decision for the next request (or answer) at {@code node}, a member address. */
  HttpGate.Decision decide(String node);
}
