package dev.nacre.cluster.check;

/**
 * What a client learned about one operation. See {@link OutcomeRules} for how responses map here.
 */
public enum Outcome {
    /** Acknowledged: it took effect (a read returned the recorded value). */
    OK,
    /** Definitely did not take effect, now or later (e.g. 400, or the request never left). */
    FAIL,
    /** Indeterminate: may take effect at any time after its invocation, or never. */
    UNKNOWN
}
