package dev.nacre.naming.model;

import java.util.Optional;

/**
 * A heartbeat from an HTTP client. A beat that carries the full instance may re-create it when the
 * server no longer knows it.
 */
public record Beat(InstanceKey key, Optional<Instance> fullInstance) {}
