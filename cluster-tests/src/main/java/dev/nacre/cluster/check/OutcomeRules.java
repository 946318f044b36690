package dev.nacre.cluster.check;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;

/**
 * How a recorder turns what a client saw into an {@link Outcome}. The rules lean to UNKNOWN:
 * calling an operation FAIL that did take effect makes a correct cluster look broken, while
 * UNKNOWN only widens what the checkers accept.
 *
 * <ul>
 *   <li>2xx: OK.</li>
 *   <li>Reads (READ, READ_SERVICE): anything but 2xx is FAIL. A read has no effect, so FAIL and
 *       UNKNOWN mean the same to the checkers: the read is ignored.</li>
 *   <li>Writes answered 4xx (bad input, auth, not found): FAIL; the server validates before it
 *       submits anything.</li>
 *   <li>Writes answered 5xx, timeouts, resets and any other I/O error after the request may have
 *       been sent: UNKNOWN. In particular a CP write's 503 is UNKNOWN: the operation may already
 *       sit in the Raft log and be committed and applied after the client was told 503 (a leader
 *       that lost its quorum, or a new leader that commits the old leader's entries).</li>
 *   <li>Writes whose connection was never established ({@link ConnectException},
 *       {@link NoRouteToHostException}, {@link UnknownHostException}): FAIL, nothing was sent.</li>
 *   <li>An AP write answered 503 is UNKNOWN too: a node may have applied it locally or forwarded
 *       it to the owner before it failed. A test that knows a server path guarantees non-application
 *       records FAIL explicitly instead.</li>
 * </ul>
 */
public final class OutcomeRules {
    private OutcomeRules() {
    }

    /** Outcome of an operation answered with an HTTP status (a gRPC status maps to its HTTP peer). */
    public static Outcome ofStatus(OpKind kind, Mode mode, int httpStatus) {
        if (httpStatus >= 200 && httpStatus < 300) {
            return Outcome.OK;
        }
        if (!kind.isWrite()) {
            return Outcome.FAIL;
        }
        if (httpStatus >= 400 && httpStatus < 500 && httpStatus != 408) {
            return Outcome.FAIL;
        }
        return Outcome.UNKNOWN;
    }

    /** Outcome of an operation that ended with an exception instead of a response. */
    public static Outcome ofError(OpKind kind, Mode mode, Throwable error) {
        if (!kind.isWrite()) {
            return Outcome.FAIL;
        }
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof ConnectException || t instanceof NoRouteToHostException
                    || t instanceof UnknownHostException) {
                return Outcome.FAIL;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return Outcome.UNKNOWN;
    }
}
