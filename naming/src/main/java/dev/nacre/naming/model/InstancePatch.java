package dev.nacre.naming.model;

import java.util.Map;
import java.util.Optional;

/** The fields of a PATCH: absent ones keep their current value. */
public record InstancePatch(
    Optional<Double> weight,
    Optional<Boolean> enabled,
    Optional<Boolean> healthy,
    Optional<Map<String, String>> metadata) {}
