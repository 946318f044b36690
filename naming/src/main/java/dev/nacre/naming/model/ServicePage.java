package dev.nacre.naming.model;

import java.util.List;

/** One page of service names (without group) and the total count. */
public record ServicePage(int count, List<String> names) {}
