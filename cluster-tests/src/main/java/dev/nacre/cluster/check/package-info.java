/**
 * Histories of client operations against a Nacre cluster, and the checkers that judge them. A pure
 * library: no cluster, no I/O, no threads of its own.
 *
 * <h2>Recording</h2>
 * Clients call {@link dev.nacre.cluster.check.HistoryRecorder#invoke} before sending a request and
 * complete the returned {@code Pending} once. {@link dev.nacre.cluster.check.OutcomeRules} maps what
 * the client saw to {@link dev.nacre.cluster.check.Outcome}: 2xx is OK; a write answered 4xx, or
 * whose connection was never established, is FAIL; a write answered 5xx (including a CP write's
 * 503, which may still be committed later), timed out or cut off is UNKNOWN; a read that did not
 * return OK is FAIL (it observed nothing, so the checkers ignore it).
 *
 * <h2>Checkers</h2>
 * <ul>
 *   <li>{@link dev.nacre.cluster.check.LinearizabilityChecker}: CP operations per instance, with
 *       Lowe's just-in-time linearization search (memoized, bounded: INCONCLUSIVE instead of a
 *       hang).</li>
 *   <li>{@link dev.nacre.cluster.check.DurabilityChecker}: final CP state of every node against the
 *       possible last writes (lost acknowledged writes, resurrected instances).</li>
 *   <li>{@link dev.nacre.cluster.check.ConvergenceChecker}: AP views equal within a bound after the
 *       heal, beating instances present everywhere.</li>
 *   <li>{@link dev.nacre.cluster.check.LivenessChecker}: CP writes resume on the majority side within
 *       a bound after a disruption; AP writes on live nodes always OK.</li>
 * </ul>
 * Each returns a {@link dev.nacre.cluster.check.Verdict} (PASS, FAIL or INCONCLUSIVE with a one-line
 * reason, for the scenario line) and detail lines for a failure message.
 */
package dev.nacre.cluster.check;
