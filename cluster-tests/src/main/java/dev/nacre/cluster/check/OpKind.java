package dev.nacre.cluster.check;

/** The registry operations a history records. */
public enum OpKind {
    /** Upsert one instance with a value (e.g. its encoded weight and metadata). */
    REGISTER,
    /** Remove one instance; idempotent. */
    DEREGISTER,
    /** Read one instance: its value, or absent. */
    READ,
    /** Read every instance of one service: a map from instance address to value. */
    READ_SERVICE;

    public boolean isWrite() {
        return this == REGISTER || this == DEREGISTER;
    }
}
