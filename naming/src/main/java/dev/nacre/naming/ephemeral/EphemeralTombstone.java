package dev.nacre.naming.ephemeral;

/**
 * An ephemeral instance's deletion, as written by {@code ownerNodeId} at {@code revision}: held
 * in the store until replication's retention ends, never listed.
 */
public record EphemeralTombstone(String ownerNodeId, long revision) implements HeldRecord {}
