package dev.nacre.node.http;

import java.net.SocketAddress;
import java.time.Duration;
import java.util.Objects;

/**
 * Decides the fate of each request the HTTP port reads, and of each answer before it is written:
 * go on now, go on after a pause, or reset the connection. A node's operator or embedder can use
 * it to shed or pace client traffic (during maintenance, say) or to record it; a node runs with
 * {@link #OPEN} unless its starter gives another ({@code NodeSeams}).
 *
 * <ul>
 *   <li>{@link Action#PASS}: handle the request / write the answer now;
 *   <li>{@link Action#RESET}: the request is not handled and no answer is written; the connection
 *       is reset (TCP RST, no response bytes), as when the server's process is gone;
 *   <li>{@link Action#HOLD}: handle the request / write the answer after {@link Decision#hold()},
 *       without asking again. The connection's event loop is not blocked meanwhile; the
 *       connection's later requests wait behind it, as they wait behind any request.
 * </ul>
 *
 * <p>The gate is asked about a request before anything is done with it (one that failed to
 * decode is asked about like any other), and about each answer the request gets. Answers that the
 * port gives before a request reaches the gate (413 for a body over the limit, 503 refusing a
 * connection over the limits) are not asked about.
 * Implementations must be thread-safe and fast: they run on the port's event loops for every
 * request and answer.
 */
@FunctionalInterface
public interface HttpGate {

  /** Which side of an exchange the gate is asked about. */
  enum Stage { REQUEST, ANSWER }

  /** What happens to one request or answer. */
  enum Action { PASS, RESET, HOLD }

  /** The action, and for {@link Action#HOLD} how long (zero otherwise). */
  record Decision(Action action, Duration hold) {
    public static final Decision PASS = new Decision(Action.PASS, Duration.ZERO);
    public static final Decision RESET = new Decision(Action.RESET, Duration.ZERO);

    public Decision {
      Objects.requireNonNull(action, "action");
      Objects.requireNonNull(hold, "hold");
      if (hold.isNegative() || (action == Action.HOLD) == hold.isZero()) {
        throw new IllegalArgumentException("a HOLD needs a positive duration, other actions none: " + action + " " + hold);
      }
    }

    /** Go on after {@code duration}; a zero or negative duration means now. */
    public static Decision hold(Duration duration) {
      return duration.isZero() || duration.isNegative() ? PASS : new Decision(Action.HOLD, duration);
    }
  }

  /** Passes everything. */
  HttpGate OPEN = (stage, client) -> Decision.PASS;

  /**
   * The decision for one request or answer.
   *
   * @param client the connection's remote address
   */
  Decision decide(Stage stage, SocketAddress client);
}
