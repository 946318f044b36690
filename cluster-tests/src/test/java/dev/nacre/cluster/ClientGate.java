package dev.nacre.cluster;

import java.time.Duration;
import java.util.Objects;

/**
 * Decides the fate of each client request arriving at a node, and of its answer: the harness
 * implements it ({@link ClientFaults}) to make a node unreachable for clients, or to freeze its
 * client traffic as in a long GC pause. {@link FaultSeams} puts it into a node: as the HTTP port's
 * {@code HttpGate} and, through {@link ClientGateInterceptor}, on the client gRPC port.
 *
 * <p>Every client transport consults the gate for each request on arrival, before anything else
 * (decoding errors included), and again just before writing the answer:
 * <ul>
 *   <li>{@link Action#PASS}: handle the request / write the answer now;
 *   <li>{@link Action#DROP}: the request is not handled and no answer is sent; the connection
 *       ends as it would when the host's process is gone. HTTP resets the TCP connection (RST,
 *       no response bytes); a gRPC server interceptor closes the call with {@code UNAVAILABLE}
 *       before the service sees it (or, for an answer, instead of it);
 *   <li>{@link Action#HOLD}: handle the request / write the answer after {@link Decision#hold()},
 *       without asking the gate again. A transport holds without blocking the connection's I/O
 *       when it can (HTTP schedules the work later), otherwise by parking the delivering thread.
 * </ul>
 *
 * <p>Implementations must be thread-safe and fast: they run on transport threads for every
 * request.
 */
public interface ClientGate {

  /** What happens to one request or answer. */
  enum Action { PASS, DROP, HOLD }

  /** The action, and for {@link Action#HOLD} how long (zero otherwise). */
  record Decision(Action action, Duration hold) {
    public static final Decision PASS = new Decision(Action.PASS, Duration.ZERO);
    public static final Decision DROP = new Decision(Action.DROP, Duration.ZERO);

    public Decision {
      Objects.requireNonNull(action, "action");
      Objects.requireNonNull(hold, "hold");
      if (hold.isNegative() || (action == Action.HOLD) == hold.isZero()) {
        throw new IllegalArgumentException("a HOLD needs a positive duration, other actions none: " + action + " " + hold);
      }
    }

    /** Handle after {@code duration}; a zero or negative duration means now. */
    public static Decision hold(Duration duration) {
      return duration.isZero() || duration.isNegative() ? PASS : new Decision(Action.HOLD, duration);
    }
  }

  /** Passes everything. */
  ClientGate OPEN = node -> Decision.PASS;

  /** The decision for the next request (or answer) at {@code node}, a member address. */
  Decision decide(String node);
}
