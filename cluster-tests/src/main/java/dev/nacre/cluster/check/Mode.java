package dev.nacre.cluster.check;

/** Consistency class of an instance: persistent instances are CP (Raft), ephemeral ones AP (Distro). */
public enum Mode {
    CP,
    AP
}
