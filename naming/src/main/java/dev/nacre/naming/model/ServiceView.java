package dev.nacre.naming.model;

import java.util.List;

/**
 * What {@code /instance/list} returns for one service after filtering.
 *
 * @param clusters the clusters asked for, comma-joined, empty for all
 * @param hosts enabled instances that passed the health filter (or all of them, when the
 *     protection threshold was reached)
 * @param checksum changes whenever the returned host list changes
 */
public record ServiceView(
    ServiceKey service,
    String clusters,
    List<Instance> hosts,
    boolean reachProtectionThreshold,
    long lastRefTime,
    String checksum) {}
